// Passkey ceremonies through the API with a software authenticator: options, the challenge cookie
// they set, and verify, as the passkey islands run them in a browser.
import type { TestApp } from "./app.ts";
import { APP_ORIGIN, call } from "./auth.ts";
import { SoftAuthenticator } from "./soft_authenticator.ts";

/** The `name=value` of the challenge cookie a response sets. */
export function challengeCookieOf(res: Response): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("playhead_webauthn="));
  if (!set) throw new Error("no challenge cookie set");
  return set.split(";")[0];
}

/** An authenticator for the test app's relying party (APP_URL http://localhost:3000). */
export function softAuthenticator(userHandle?: string): Promise<SoftAuthenticator> {
  return SoftAuthenticator.create({ rpId: "localhost", origin: APP_ORIGIN, userHandle });
}

/** POST register/options; returns the challenge and the cookie header for verify. */
export async function startRegistration(t: TestApp, cookie: string) {
  const res = await call(t.app, "POST", "/api/auth/passkeys/register/options", { cookie });
  if (res.status !== 200) throw new Error(`register/options: ${res.status} ${await res.text()}`);
  const options = await res.json();
  return { options, cookie: `${cookie}; ${challengeCookieOf(res)}` };
}

/** Registers a new software passkey for the signed-in user; returns its authenticator. */
export async function registerPasskey(t: TestApp, userId: string, cookie: string, name?: string) {
  const authenticator = await softAuthenticator(userId);
  const started = await startRegistration(t, cookie);
  const response = await authenticator.register(started.options.challenge);
  const res = await call(t.app, "POST", "/api/auth/passkeys/register/verify", {
    cookie: started.cookie,
    body: { response, ...(name ? { name } : {}) },
  });
  if (res.status !== 201) throw new Error(`register/verify: ${res.status} ${await res.text()}`);
  return authenticator;
}

/** POST authenticate/options (signed out); returns the challenge and its cookie. */
export async function startAuthentication(t: TestApp) {
  const res = await call(t.app, "POST", "/api/auth/passkeys/authenticate/options");
  if (res.status !== 200) throw new Error(`authenticate/options: ${res.status}`);
  const options = await res.json();
  return { options, cookie: challengeCookieOf(res) };
}
