import assert from "node:assert/strict";
import { parseUserAgent } from "./user_agent.ts";

Deno.test("user agent: browser, OS and device class", () => {
  assert.deepEqual(
    parseUserAgent(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:121.0) Gecko/20100101 Firefox/121.0",
    ),
    { browser: "Firefox", os: "macOS", device: "desktop" },
  );
  assert.deepEqual(
    parseUserAgent(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    ),
    { browser: "Safari", os: "iOS", device: "mobile" },
  );
  assert.deepEqual(
    parseUserAgent(
      "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    ).device,
    "tablet",
  );
});

Deno.test("user agent: blank or unknown gives nulls, never throws", () => {
  assert.deepEqual(parseUserAgent(""), { browser: null, os: null, device: null });
  assert.deepEqual(parseUserAgent("curl/8.5.0").device, null);
});
