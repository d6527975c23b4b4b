// Signs in with a passkey, usernameless: the browser offers the passkeys it holds for this site
// (@simplewebauthn/browser's startAuthentication), the server verifies and sets the session.
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { useEffect, useState } from "preact/hooks";

interface Props {
  /** Where to go once signed in (already checked to be a same-origin path). */
  next: string;
  label?: string;
}

async function post(path: string, body?: unknown): Promise<Response> {
  return await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

export default function PasskeySignIn({ next, label = "Sign in with a passkey" }: Props) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  async function signIn() {
    setBusy(true);
    setMessage(null);
    try {
      const options = await post("/api/auth/passkeys/authenticate/options");
      if (!options.ok) throw new Error(`The server answered ${options.status}.`);
      const response = await startAuthentication({ optionsJSON: await options.json() });
      const verify = await post("/api/auth/passkeys/authenticate/verify", { response });
      if (!verify.ok) {
        const body = await verify.json().catch(() => null);
        throw new Error(body?.message ?? `The server answered ${verify.status}.`);
      }
      location.assign(next);
    } catch (error) {
      setBusy(false);
      setMessage(
        error instanceof Error && error.name === "NotAllowedError"
          ? "Passkey sign-in was cancelled."
          : error instanceof Error
          ? error.message
          : String(error),
      );
    }
  }

  return (
    <div class="passkey-signin">
      <button type="button" onClick={signIn} disabled={!supported || busy}>{label}</button>
      {supported === false && <p class="hint">This browser does not support passkeys.</p>}
      {message && <p role="alert">{message}</p>}
    </div>
  );
}
