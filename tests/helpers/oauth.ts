// An app with both OAuth providers configured against loopback peers: the GitHub-compatible
// server (A) and an oauth2-mock-server OIDC issuer (B). `await using t = await oauthTestApp()`.
import { createTestApp, type TestApp } from "./app.ts";
import { finalLocation, TestBrowser } from "./oauth_browser.ts";
import { startTestGithub, type TestGithub } from "./oauth_github.ts";
import { startTestOidc, type TestOidc } from "./oauth_oidc.ts";

export interface OAuthTestApp extends TestApp {
  github: TestGithub;
  oidc: TestOidc;
  browser(cookie?: string): TestBrowser;
}

export async function oauthTestApp(env: Record<string, string> = {}): Promise<OAuthTestApp> {
  const github = startTestGithub();
  const oidc = await startTestOidc();
  const t = await createTestApp({ ...github.env, ...oidc.env, ...env });
  const disposeApp = t[Symbol.asyncDispose];
  return Object.assign(t, {
    github,
    oidc,
    browser: (cookie?: string) => new TestBrowser(t.app, cookie),
    [Symbol.asyncDispose]: async () => {
      await disposeApp();
      await github[Symbol.asyncDispose]();
      await oidc[Symbol.asyncDispose]();
    },
  });
}

/** Runs a whole sign-in from the app's sign-in link; returns the hops and where they end. */
export async function signInWith(browser: TestBrowser, provider: string, query = "") {
  const hops = await browser.follow(`/api/auth/signin/${provider}${query}`);
  return { hops, location: finalLocation(hops), last: hops.at(-1)! };
}
