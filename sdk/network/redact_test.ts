import assert from "node:assert/strict";
import { BODY_CUT_MARK, BODY_MAX_CHARS } from "@/core/projects/network_limits.ts";
import { bodyKind, cutBody, keepHeaders, redactBody, redactUrl } from "./redact.ts";

Deno.test("network redaction: only listed headers are kept, and never credentials whatever the list says", () => {
  const headers = {
    "Content-Type": "application/json",
    Accept: "*/*",
    Authorization: "Bearer S3CR3T",
    Cookie: "sid=1",
    "Set-Cookie": "sid=2",
    "X-Service-Public-Key": "sp_x",
    "X-CSRF-Token": "t",
    "X-Api-Key": "k",
    "X-Session-Id": "s",
    "X-Client-Secret": "c",
    "X-Auth-User": "u",
    "X-Request-Id": "r",
  };
  const everything = Object.keys(headers).map((h) => h.toLowerCase());
  assert.deepEqual(keepHeaders(headers, everything), {
    "content-type": "application/json",
    accept: "*/*",
    "x-request-id": "r",
  });
  assert.deepEqual(keepHeaders(headers, ["accept"]), { accept: "*/*" });
});

Deno.test("network redaction: secret query and fragment parameters are replaced, the rest kept", () => {
  assert.equal(
    redactUrl("https://a.example/cb?code=abc&state=1&access_token=t&apiKey=k#id_token=x&x=y"),
    "https://a.example/cb?code=[redacted]&state=1&access_token=[redacted]&apiKey=[redacted]" +
      "#id_token=[redacted]&x=y",
  );
  assert.equal(
    redactUrl("https://u:pw@a.example/p?password=hunter2&q=shoes"),
    "https://a.example/p?password=[redacted]&q=shoes",
  );
  assert.equal(redactUrl("https://a.example/orders/7"), "https://a.example/orders/7");
  assert.equal(redactUrl("/relative?secret=1&page=2"), "/relative?secret=[redacted]&page=2");
});

Deno.test("network redaction: JSON values under secret keys become [redacted], at any depth", () => {
  const body = JSON.stringify({
    user: "a",
    password: "hunter2",
    nested: { api_key: "k", cardNumber: "4111", cvv: "123", ssn: "1", token: { a: 1 } },
    list: [{ secret: "s", ok: 1 }],
    authorization: "Bearer x",
  });
  assert.deepEqual(JSON.parse(redactBody(body, "json", false)), {
    user: "a",
    password: "[redacted]",
    nested: {
      api_key: "[redacted]",
      cardNumber: "[redacted]",
      cvv: "[redacted]",
      ssn: "[redacted]",
      token: "[redacted]",
    },
    list: [{ secret: "[redacted]", ok: 1 }],
    authorization: "[redacted]",
  });
});

Deno.test("network redaction: input masking masks what the visitor sent; text/plain JSON is JSON", () => {
  const sent = '{"user":"a","password":"hunter2"}';
  assert.equal(redactBody(sent, "text", true), '{"user":"*","password":"[redacted]"}');
  assert.equal(redactBody(sent, "text", false), '{"user":"a","password":"[redacted]"}');
  assert.equal(redactBody("hello there", "text", true), "***********");
  assert.equal(redactBody("user=a&pass=hunter2", "form", false), "user=a&pass=%5Bredacted%5D");
  assert.equal(redactBody("user=ab&pass=x", "form", true), "user=**&pass=%5Bredacted%5D");
});

Deno.test("network redaction: bodies are recorded only for text, JSON and form types", () => {
  assert.equal(bodyKind("application/json; charset=utf-8"), "json");
  assert.equal(bodyKind("application/problem+json"), "json");
  assert.equal(bodyKind("application/x-www-form-urlencoded"), "form");
  assert.equal(bodyKind("text/html"), "text");
  assert.equal(bodyKind("image/png"), null);
  assert.equal(bodyKind("multipart/form-data; boundary=x"), null);
  assert.equal(bodyKind("application/octet-stream"), null);
  assert.equal(bodyKind(undefined), null);
});

Deno.test("network redaction: a body is cut at exactly 150 KB with the mark, not a character sooner", () => {
  assert.equal(BODY_MAX_CHARS, 150 * 1024);
  const at = "a".repeat(BODY_MAX_CHARS);
  assert.equal(cutBody(at), at);
  assert.equal(cutBody(at.slice(1)), at.slice(1));
  const over = at + "b";
  assert.equal(cutBody(over), at + BODY_CUT_MARK);
  const big = "x".repeat(300 * 1024);
  assert.equal(cutBody(big), "x".repeat(BODY_MAX_CHARS) + BODY_CUT_MARK);
  // a surrogate pair on the cut is not split
  const pair = "a".repeat(BODY_MAX_CHARS - 1) + "😀" + "z";
  assert.equal(cutBody(pair), "a".repeat(BODY_MAX_CHARS - 1) + BODY_CUT_MARK);
});
