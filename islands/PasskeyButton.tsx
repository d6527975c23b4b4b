// Registers a passkey for the signed-in user: options from the server, the browser's
// navigator.credentials.create() via @simplewebauthn/browser, then verify. Reloads on success
// when asked, so a server-rendered passkey list shows the new one.
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useState } from "preact/hooks";
import { apiPost } from "@/utils/api_client.ts";

interface Props {
  label?: string;
  /** Reload the page once the passkey is stored. */
  reload?: boolean;
}

type Status = "idle" | "busy" | "done" | "error";

export default function PasskeyButton({ label = "Add a passkey", reload = false }: Props) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [status, setStatus] = useState<Status>("idle");
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  async function register() {
    setStatus("busy");
    setMessage(null);
    try {
      const optionsJSON = await apiPost<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
        "/api/auth/passkeys/register/options",
      );
      const response = await startRegistration({ optionsJSON });
      const passkey = await apiPost<{ name: string }>("/api/auth/passkeys/register/verify", {
        response,
      });
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
