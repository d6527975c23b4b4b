import assert from "node:assert/strict";
import { defaultPasskeyName } from "./name.ts";

Deno.test("passkey name: the platform of the User-Agent, else a number", () => {
  const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1";
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15";
  const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126";
  assert.equal(defaultPasskeyName(mac, 0), "Passkey on Mac");
  assert.equal(defaultPasskeyName(iphone, 0), "Passkey on iPhone");
  assert.equal(defaultPasskeyName(android, 3), "Passkey on Android");
  assert.equal(defaultPasskeyName("curl/8.5.0", 2), "Passkey 3");
  assert.equal(defaultPasskeyName(null, 0), "Passkey 1");
});
