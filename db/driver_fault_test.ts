import assert from "node:assert/strict";
import { isDriverWriteFault } from "./driver_fault.ts";

Deno.test("driver fault guard: matches only postgres.js's null-socket write fault", () => {
  const fault = new TypeError("Cannot read properties of null (reading 'write')");
  fault.stack = `${fault.message}\n    at Immediate.nextWrite (file:///x/node_modules/.deno/` +
    `postgres@3.4.9/node_modules/postgres/src/connection.js:255:22)`;
  assert.equal(isDriverWriteFault(fault), true);
  const elsewhere = new TypeError("Cannot read properties of null (reading 'write')");
  elsewhere.stack = `${elsewhere.message}\n    at nextWrite (file:///app/core/ingest.ts:1:1)`;
  assert.equal(isDriverWriteFault(elsewhere), false);
  assert.equal(isDriverWriteFault(new Error("boom")), false);
  assert.equal(isDriverWriteFault("nextWrite postgres/src/connection.js null"), false);
});
