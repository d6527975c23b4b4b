// Email one-time-code sign-in: ask for the address, send a code, then take the code — with a
// resend countdown that follows the server's cooldown (429 retryAfter).
import { useEffect, useState } from "preact/hooks";
import { ApiError, apiPost } from "@/utils/api_client.ts";

interface Props {
  /** Where to go once signed in (already checked to be a same-origin path). */
  next: string;
  /** The server's cooldown between two codes, in seconds. */
  cooldownSeconds: number;
}

/** The API's refusal as it said it. */
function failureText(error: unknown): string {
  if (!(error instanceof ApiError)) throw error;
  return error.status === 0 ? "The server could not be reached. Try again." : error.message;
}

function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3600)} h`;
}

export default function EmailCodeSignIn({ next, cooldownSeconds }: Props) {
  const [ready, setReady] = useState(false);
  const [step, setStep] = useState<"email" | "code">("email");
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [wait, setWait] = useState(0);

  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function send() {
    setBusy(true);
    setMessage(null);
    try {
      await apiPost("/api/auth/otp/send", { email });
      setStep("code");
      setWait(cooldownSeconds);
      setMessage(`We sent a 6-digit code to ${email}.`);
    } catch (error) {
      const { status, retryAfter } = error as ApiError;
      if (status === 429 && retryAfter) {
        // A code went out recently (or today's limit is reached): it can still be entered.
        setStep("code");
        setWait(retryAfter);
        setMessage(`A code was sent recently. You can ask for another in ${waitText(retryAfter)}.`);
      } else setMessage(failureText(error));
    }
    setBusy(false);
  }

  async function verify() {
    setBusy(true);
    setMessage(null);
    try {
      await apiPost("/api/auth/otp/verify", { email, code });
      location.assign(next);
      return;
    } catch (error) {
      setMessage(failureText(error));
    }
    setBusy(false);
  }

  const disabled = !ready || busy;
  return (
    <div class="signin-email">
      {step === "email"
        ? (
          // Keyed: each step gets its own elements, so going back to the address never reuses the
          // code's input (which showed the address as empty and sent nothing).
          <form
            key="email"
            class="stack"
            onSubmit={(e) => {
              e.preventDefault();
              send();
            }}
          >
            <label for="signin-email">Email address</label>
            <input
              id="signin-email"
              type="email"
              name="email"
              autocomplete="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value.trim())}
            />
            <button type="submit" disabled={disabled}>Email me a code</button>
          </form>
        )
        : (
          <form
            key="code"
            class="stack"
            onSubmit={(e) => {
              e.preventDefault();
              verify();
            }}
          >
            <label for="signin-code">Code sent to {email}</label>
            <input
              id="signin-code"
              name="code"
              inputMode="numeric"
              autocomplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value.replace(/\D/g, ""))}
            />
            <button type="submit" disabled={disabled}>Sign in</button>
            <p class="row">
              <button type="button" onClick={send} disabled={disabled || wait > 0}>
                {wait > 0 ? `Resend code in ${waitText(wait)}` : "Resend code"}
              </button>
              <button
                type="button"
                class="link"
                onClick={() => {
                  setStep("email");
                  setCode("");
                  setMessage(null);
                }}
              >
                Use another email
              </button>
            </p>
          </form>
        )}
      <p class="form-message" role="status" aria-live="polite">{message}</p>
    </div>
  );
}
