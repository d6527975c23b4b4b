import assert from "node:assert/strict";
import { containDriverFaults, guarded, isDriverWriteFault } from "./driver_fault.ts";

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

Deno.test("driver fault guard: the fault is caught inside its setImmediate callback, and later immediates run", async () => {
  containDriverFaults();
  const fault = new TypeError("Cannot read properties of null (reading 'write')");
  fault.stack = `${fault.message}\n    at Immediate.nextWrite (file:///x/node_modules/.deno/` +
    `postgres@3.4.9/node_modules/postgres/src/connection.js:255:22)`;
  let escaped = false;
  const onError = (event: ErrorEvent) => {
    escaped = true;
    event.preventDefault();
  };
  globalThis.addEventListener("error", onError);
  try {
    setImmediate(() => {
      throw fault;
    });
    const after = await new Promise<string>((resolve) => setImmediate(resolve, "ran"));
    const cleared = setImmediate(() => assert.fail("a cleared immediate ran"));
    clearImmediate(cleared);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(after, "ran");
    assert.equal(escaped, false, "the fault reached the global error handler");
  } finally {
    globalThis.removeEventListener("error", onError);
  }
});

Deno.test("driver fault guard: any other error thrown in a guarded callback still escapes", () => {
  assert.throws(() =>
    guarded(() => {
      throw new Error("boom");
    })(), /boom/);
});
