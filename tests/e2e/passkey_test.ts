// Browser test of passkeys in Chromium with a CDP virtual authenticator: a
// signed-in user registers a passkey through the island, signs out, and signs in with it.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Manifest } from "$fresh/server.ts";
import { createPageHandler, createStaticHandler } from "$fresh/server.ts";
import { buildIslands } from "@/fresh/build.ts";
import * as app from "@/routes/_app.tsx";
import * as middleware from "@/routes/_middleware.ts";
import * as passkeyButton from "@/islands/PasskeyButton.tsx";
import * as passkeySignIn from "@/islands/PasskeySignIn.tsx";
import { startSession } from "@/http/session.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { insertUser } from "@/tests/helpers/factories.ts";
import { startTestServer } from "@/tests/helpers/server.ts";
import * as passkeyPage from "./passkey_page.tsx";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const manifest: Manifest = {
  routes: {
    "./routes/_app.tsx": app,
    "./routes/_middleware.ts": middleware,
    "./routes/passkeys.tsx": passkeyPage,
  },
  islands: {
    "./islands/PasskeyButton.tsx": passkeyButton,
    "./islands/PasskeySignIn.tsx": passkeySignIn,
  },
  baseUrl: new URL("../../fresh.gen.ts", import.meta.url).href,
};

async function startPasskeyServer(buildDir: string) {
  await buildIslands({
    rootDir: ROOT,
    islands: Object.keys(manifest.islands),
    buildDir,
    dev: true,
  });
  const staticDir = `${ROOT}static`;
  // WebAuthn refuses IP addresses as RP IDs: the browser and APP_URL use localhost.
  return await startTestServer({
    staticFiles: createStaticHandler({ staticDir, buildDir }),
    pages: await createPageHandler(manifest, { staticDir, buildDir }),
  }, { host: "localhost" });
}

Deno.test("passkeys e2e: register when signed in, sign out, sign in with the passkey", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "passkey-e2e-build-" });
  const server = await startPasskeyServer(buildDir);
  const browser = await launchChromium();
  try {
    const user = await insertUser(server.db, "ada@example.test");
    const context = await browser.newContext();
    const cookie = (await startSession(server.deps, user.id)).split(";")[0].split("=");
    await context.addCookies([{ name: cookie[0], value: cookie[1], url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    // Register.
    await page.goto(`${server.url}/passkeys`);
    assert.equal(await page.locator("#who").textContent(), "ada@example.test");
    await page.waitForSelector("fresh-island[data-hydrated='true']");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("status").filter({ hasText: "Added" }).waitFor();
    assert.equal(await page.getByRole("status").textContent(), 'Added "Passkey on Linux".');
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.ok(credentials[0].isResidentCredential, "a discoverable credential");
    const stored = await server.db.selectFrom("authenticators").selectAll().execute();
    assert.equal(stored.length, 1);
    assert.equal(stored[0].user_id, user.id);
    assert.equal(
      stored[0].credential_id,
      Uint8Array.fromBase64(credentials[0].credentialId)
        .toBase64({ alphabet: "base64url", omitPadding: true }),
    );

    // Sign out through the API, as the sign-out page does.
    const signout = await page.evaluate(async () =>
      (await fetch("/api/auth/signout", { method: "POST" })).status
    );
    assert.equal(signout, 204);
    await page.goto(`${server.url}/passkeys`);
    assert.equal(await page.locator("#who").textContent(), "signed out");

    // Sign in with the passkey: no email typed, the authenticator offers its credential.
    await page.waitForSelector("fresh-island[data-hydrated='true']");
    await Promise.all([
      page.waitForURL(`${server.url}/passkeys`, { waitUntil: "load" }),
      page.getByRole("button", { name: "Sign in with a passkey" }).click(),
    ]);
    await page.locator("#who", { hasText: "ada@example.test" }).waitFor();
    const [row] = await server.db.selectFrom("authenticators").select("counter").execute();
    assert.ok(Number(row.counter) >= 1, "the signature counter was recorded");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    await Deno.remove(buildDir, { recursive: true });
  }
});
