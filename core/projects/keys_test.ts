import assert from "node:assert/strict";
import { generateProjectKey, maskProjectKey } from "./keys.ts";

Deno.test("keys: generated keys are sp_ + 32 lowercase hex and never repeat", () => {
  const keys = new Set(Array.from({ length: 1000 }, generateProjectKey));
  assert.equal(keys.size, 1000);
  for (const key of keys) assert.match(key, /^sp_[0-9a-f]{32}$/);
});

Deno.test("keys: the mask keeps sp_, the first 4 and last 4 hex", () => {
  const masked = maskProjectKey("sp_0123456789abcdef0123456789abcdef");
  assert.equal(masked, "sp_0123" + "•".repeat(24) + "cdef");
});
