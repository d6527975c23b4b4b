import assert from "node:assert/strict";
import { BODY_CUT_MARK, BODY_MAX_CHARS, headerKeepable } from "@/core/projects/network_limits.ts";
import { bodyKind, cutBody, keepHeaders, redactBody, redactPatterns, redactUrl } from "./redact.ts";

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
    redactUrl("https://a.example/cb?code=abc&page=1&access_token=t&apiKey=k#id_token=x&x=y"),
    "https://a.example/cb?code=[redacted]&page=1&access_token=[redacted]&apiKey=[redacted]" +
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
  assert.deepEqual(JSON.parse(redactBody(body, "json", "none")), {
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
  assert.equal(redactBody(sent, "text", "request"), '{"user":"*","password":"[redacted]"}');
  assert.equal(redactBody(sent, "text", "none"), '{"user":"a","password":"[redacted]"}');
  assert.equal(redactBody("hello there", "text", "request"), "***********");
  assert.equal(redactBody("user=a&pass=hunter2", "form", "none"), "user=a&pass=%5Bredacted%5D");
  assert.equal(redactBody("user=ab&pass=x", "form", "request"), "user=**&pass=%5Bredacted%5D");
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

/** Names that say credentials (docs/decisions.md "Network capture"), as they are written. */
const CREDENTIAL_NAMES = [
  "x-jwt-assertion",
  "X-Passphrase",
  "x-pwd",
  "x-credential-id",
  "x-signature",
  "DPoP",
  "x-bearer",
  "cookie2",
  "x-ticket",
  "x-saml-token",
  "x-state",
];

Deno.test("network redaction: a header naming jwt, pass, pwd, cred, sign, dpop, bearer, cookie, ticket, saml or state is never kept", () => {
  const headers = Object.fromEntries(CREDENTIAL_NAMES.map((name) => [name, "v"]));
  const listed = [...CREDENTIAL_NAMES.map((n) => n.toLowerCase()), "x-request-id"];
  assert.deepEqual(keepHeaders({ ...headers, "X-Request-Id": "r" }, listed), {
    "x-request-id": "r",
  });
  for (const name of CREDENTIAL_NAMES) assert.equal(headerKeepable(name), false, name);
  for (const name of ["content-type", "accept", "x-request-id", "if-none-match"]) {
    assert.equal(headerKeepable(name), true, name);
  }
});

Deno.test("network redaction: query parameters and JSON and form keys naming credentials are replaced, case aside", () => {
  const params = ["jwt", "passphrase", "pwd", "cred", "signed", "dpop", "bearer", "cookie"]
    .concat(["ticket", "SAMLResponse", "state", "RelayState"]);
  const query = params.map((name, i) => `${name}=v${i}`).join("&");
  assert.equal(
    redactUrl(`https://a.example/cb?${query}&page=2`),
    `https://a.example/cb?${params.map((n) => `${n}=[redacted]`).join("&")}&page=2`,
  );
  const keys = ["jwt", "Pwd", "credentials", "signature", "dpop", "bearerToken", "cookie"]
    .concat(["ticket", "SAMLRequest", "oauthState", "userPass"]);
  const body = Object.fromEntries([...keys.map((k) => [k, "v"]), ["page", 2]]);
  assert.deepEqual(JSON.parse(redactBody(JSON.stringify(body), "json", "none")), {
    ...Object.fromEntries(keys.map((k) => [k, "[redacted]"])),
    page: 2,
  });
  assert.equal(redactBody("ticket=t&page=2", "form", "none"), "ticket=%5Bredacted%5D&page=2");
});

Deno.test("network redaction: with input masking every JSON scalar is masked, numbers and booleans too, in requests and responses", () => {
  const body = JSON.stringify({
    pinCode: 987654,
    amount: 12.5,
    remember: true,
    agree: false,
    note: null,
    name: "Ann",
    items: [{ sku: 4111111111111111, qty: 2 }, "ab", 7],
    password: 1234,
  });
  const masked = {
    pinCode: "******",
    amount: "****",
    remember: "*****", // true and false alike: the length would tell them apart
    agree: "*****",
    note: null,
    name: "***",
    items: [{ sku: "****************", qty: "*" }, "**", "*"],
    password: "[redacted]",
  };
  for (const masking of ["request", "response"] as const) {
    assert.deepEqual(JSON.parse(redactBody(body, "json", masking)), masked, masking);
    assert.equal(redactBody("987654", "json", masking), '"******"');
    assert.equal(redactBody("true", "json", masking), '"*****"');
  }
  const kept = JSON.parse(redactBody(body, "json", "none"));
  assert.equal(kept.pinCode, 987654);
  assert.equal(kept.remember, true);
  assert.equal(kept.password, "[redacted]");
  assert.equal(redactBody("pin=1234&n=5", "form", "response"), "pin=%5Bredacted%5D&n=*");
});

Deno.test("network redaction: with input masking a response's text loses its emails, codes of 6 digits or more and JWT-like tokens", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  const text = `Hi ann.lee+x@mail.example.com, your code is 482913 (not 48291).
Card 4111 1111 1111 1111 or 4111-1111; order 2024 of 12345; session ${jwt};
<a href="mailto:bob@example.org">bob</a> eyJhbGci alone stays; at@ and a@b stay.`;
  const stars = (s: string) => "*".repeat(s.length);
  const expected = `Hi ${stars("ann.lee+x@mail.example.com")}, your code is ****** (not 48291).
Card ${stars("4111 1111 1111 1111")} or ${stars("4111-1111")}; order 2024 of 12345; session ${
    stars(jwt)
  };
<a href="mailto:${stars("bob@example.org")}">bob</a> eyJhbGci alone stays; at@ and a@b stay.`;
  assert.equal(redactPatterns(text), expected);
  assert.equal(redactBody(text, "text", "response"), expected);
  assert.equal(redactBody(text, "text", "request"), stars(text)); // what the visitor sent: all
  assert.equal(redactBody(text, "text", "none"), text);
  // 5 digits stay, 6 go, with or without single separators between them
  assert.equal(
    redactPatterns("12345; 123456; 12 34 56; 1-2-3-4-5; 1-2-3-4-5-6; 123  456"),
    "12345; ******; ********; 1-2-3-4-5; ***********; 123  456",
  );
});
