// Registers a passkey for the signed-in user: options from the server, the browser's
// navigator.credentials.create() via @simplewebauthn/browser, then verify. Reloads on success
// when asked, so a server-rendered passkey list shows the new one.
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "preact/hooks";

interface Props {
  label?: string;
  /** Reload the page once the passkey is stored. */
  reload?: boolean;
}

type Status = "idle" | "busy" | "done" | "error";

async function post(path: string, body?: unknown): Promise<Response> {
  return await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

async function failure(res: Response): Promise<string> {
  const body = await res.json().catch(() => null);
  return body?.message ?? `The server answered ${res.status}.`;
}

export default function PasskeyButton({ label = "Add a passkey", reload = false }: Props) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [status, setStatus] = useState<Status>("idle");
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  async function register() {
    setStatus("busy");
    setMessage(null);
    try {
      const options = await post("/api/auth/passkeys/register/options");
      if (!options.ok) throw new Error(await failure(options));
      const response = await startRegistration({ optionsJSON: await options.json() });
      const verify = await post("/api/auth/passkeys/register/verify", { response });
      if (!verify.ok) throw new Error(await failure(verify));
      const passkey = await verify.json();
      setStatus("done");
      setMessage(`Added "${passkey.name}".`);
      if (reload) location.reload();
    } catch (error) {
      setStatus("error");
      setMessage(
        error instanceof Error && error.name === "NotAllowedError"
          ? "No passkey was created."
          : error instanceof Error
          ? error.message
          : String(error),
      );
    }
  }

  return (
    <div class="passkey-button" data-status={status}>
      <button type="button" onClick={register} disabled={!supported || status === "busy"}>
        {label}
      </button>
      {supported === false && <p class="hint">This browser does not support passkeys.</p>}
      {message && <p role="status" aria-live="polite">{message}</p>}
    </div>
  );
}
