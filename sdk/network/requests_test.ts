import assert from "node:assert/strict";
import { type PluginRequest, recordedRequest, requestRules } from "./requests.ts";

const rules = requestRules(
  { headers: ["content-type", "authorization"], bodyUrls: ["/api/*"] },
  { endpoint: "https://playhead.example/", privacyMaskInputs: true },
  1_700_000_000_000,
);

const raw = (overrides: Partial<PluginRequest> = {}): PluginRequest => ({
  name: "https://shop.example/api/login?code=abc",
  method: "post",
  initiatorType: "fetch",
  status: 500,
  startTime: 100.4,
  endTime: 350.2,
  requestHeaders: { Authorization: "Bearer S3CR3T", "Content-Type": "application/json" },
  responseHeaders: { "content-type": "application/json", "set-cookie": "sid=1" },
  requestBody: '{"user":"a","password":"hunter2"}',
  responseBody: '{"ok":false,"token":"t"}',
  ...overrides,
});

Deno.test("network requests: Playhead's own endpoint is never recorded, nor other initiators", () => {
  assert.equal(recordedRequest(raw({ name: "https://playhead.example/api/ingest" }), rules), null);
  assert.equal(recordedRequest(raw({ name: "https://playhead.example" }), rules), null);
  assert.notEqual(recordedRequest(raw({ name: "https://playhead.example.evil/x" }), rules), null);
  assert.equal(recordedRequest(raw({ initiatorType: "img" }), rules), null);
});

Deno.test("network requests: kept headers, redacted address and bodies, status 0 without an answer", () => {
  const r = recordedRequest(raw(), rules)!;
  assert.equal(r.name, "https://shop.example/api/login?code=[redacted]");
  assert.equal(r.method, "POST");
  assert.equal(r.timestamp, 1_700_000_000_100);
  assert.deepEqual(r.requestHeaders, { "content-type": "application/json" });
  assert.deepEqual(r.responseHeaders, { "content-type": "application/json" });
  assert.equal(r.requestBody, '{"user":"*","password":"[redacted]"}');
  assert.equal(r.responseBody, '{"ok":"*****","token":"[redacted]"}');
  assert.equal(recordedRequest(raw({ status: undefined }), rules)!.status, 0);
  assert.ok(!JSON.stringify(r).includes("S3CR3T") && !JSON.stringify(r).includes("hunter2"));
});

Deno.test("network requests: bodies only for bodyUrls and recordable types", () => {
  const other = recordedRequest(raw({ name: "https://shop.example/account/login" }), rules)!;
  assert.equal(other.requestBody, undefined);
  assert.equal(other.responseBody, undefined);
  const binary = recordedRequest(
    raw({ responseHeaders: { "content-type": "image/png" }, responseBody: "PNG" }),
    rules,
  )!;
  assert.equal(binary.responseBody, undefined);
});

Deno.test("network requests: input masking masks both bodies' values; without it they are kept but secrets", () => {
  const bodies = {
    requestBody: '{"pinCode":987654,"otp":"1"}',
    responseBody: '{"balance":1520.75,"email":"ann@example.com","jwt":"eyJ.x.y"}',
  };
  const masked = recordedRequest(raw(bodies), rules)!;
  assert.equal(masked.requestBody, '{"pinCode":"******","otp":"[redacted]"}');
  assert.equal(
    masked.responseBody,
    '{"balance":"*******","email":"***************","jwt":"[redacted]"}',
  );
  const open = requestRules(
    { headers: [], bodyUrls: ["/api/*"] },
    { endpoint: "https://playhead.example/", privacyMaskInputs: false },
    0,
  );
  const kept = recordedRequest(raw(bodies), open)!;
  assert.equal(kept.requestBody, '{"pinCode":987654,"otp":"[redacted]"}');
  assert.equal(
    kept.responseBody,
    '{"balance":1520.75,"email":"ann@example.com","jwt":"[redacted]"}',
  );
});
