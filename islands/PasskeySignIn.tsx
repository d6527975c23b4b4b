// Signs in with a passkey, usernameless: the browser offers the passkeys it holds for this site
// (@simplewebauthn/browser's startAuthentication), the server verifies and sets the session.
import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { useEffect, useState } from "preact/hooks";
import { apiPost } from "@/utils/api_client.ts";

interface Props {
  /** Where to go once signed in (already checked to be a same-origin path). */
  next: string;
  label?: string;
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
      const optionsJSON = await apiPost<
        Parameters<typeof startAuthentication>[0]["optionsJSON"]
      >("/api/auth/passkeys/authenticate/options");
      const response = await startAuthentication({ optionsJSON });
      await apiPost("/api/auth/passkeys/authenticate/verify", { response });
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
