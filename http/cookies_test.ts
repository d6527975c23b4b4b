import assert from "node:assert/strict";
import { readSessionCookie, sessionCookie, sessionCookieName } from "./cookies.ts";

Deno.test("session cookie: plain name, HttpOnly, SameSite=Lax and 30 days over http", () => {
  assert.equal(sessionCookieName("http://localhost:3000"), "playhead_session");
  assert.equal(
    sessionCookie("http://localhost:3000", "tok"),
    "playhead_session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000",
  );
});

Deno.test("session cookie: __Host- prefix and Secure over https", () => {
  assert.equal(
    sessionCookie("https://playhead.example", "tok"),
    "__Host-playhead_session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure",
  );
  assert.equal(
    sessionCookie("https://playhead.example", null),
    "__Host-playhead_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure",
  );
});

Deno.test("session cookie: read from a Cookie header among others, by the configured name only", () => {
  const header = "a=1; playhead_session=tok.en; b=2";
  assert.equal(readSessionCookie("http://localhost:3000", header), "tok.en");
  assert.equal(readSessionCookie("https://playhead.example", header), null);
  assert.equal(readSessionCookie("http://localhost:3000", null), null);
  assert.equal(readSessionCookie("http://localhost:3000", "playhead_session="), null);
});
