import assert from "node:assert/strict";
import { withoutUserinfo } from "./userinfo.ts";

Deno.test("userinfo: a URL's user and password are left out wherever the URL stands in the text", () => {
  assert.equal(
    withoutUserinfo("GET http://user:pass@127.0.0.1:8080/x failed"),
    "GET http://127.0.0.1:8080/x failed",
  );
  assert.equal(
    withoutUserinfo('"https://admin@shop.example/a?b=1"'),
    '"https://shop.example/a?b=1"',
  );
  assert.equal(withoutUserinfo("ws://u:p%40ss@h/ and ftp://x:y@h"), "ws://h/ and ftp://h");
  assert.equal(
    withoutUserinfo("at f (https://u:p@cdn.example/app.js:1:2)"),
    "at f (https://cdn.example/app.js:1:2)",
  );
});

Deno.test("userinfo: emails, paths holding @ and text without a URL's credentials stay as they were", () => {
  for (
    const text of [
      "mail ann@example.com",
      "https://example.com/users/@ann",
      "https://example.com/?to=ann@example.com",
      "https://example.com#@x",
      "no url here",
      "mailto:ann@example.com",
    ]
  ) assert.equal(withoutUserinfo(text), text);
});
