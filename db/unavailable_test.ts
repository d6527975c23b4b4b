import assert from "node:assert/strict";
import { isDatabaseUnavailable } from "./unavailable.ts";

Deno.test("database unavailable: the driver's null-socket fault thrown into a query means unavailable", () => {
  // As logged by the fault test's second outage: thrown synchronously from the query's write.
  const fault = new TypeError("Cannot read properties of null (reading 'write')");
  fault.stack = `${fault.message}\n    at nextWrite (file:///x/node_modules/.deno/postgres@3.4.9/` +
    `node_modules/postgres/src/connection.js:255:22)\n    at write (file:///x/node_modules/` +
    `.deno/postgres@3.4.9/node_modules/postgres/src/connection.js:249:14)`;
  assert.equal(isDatabaseUnavailable(fault), true);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "57P01" })), true);
  assert.equal(isDatabaseUnavailable(new TypeError("Cannot read properties of null")), false);
  assert.equal(isDatabaseUnavailable(new Error("boom")), false);
});
