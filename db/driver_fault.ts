// postgres.js 3.4.9 can throw from a timer after a connection closed under load
// (`Cannot read properties of null (reading 'write') at nextWrite`, porsager/postgres #1154 and
// #1208, fixes unmerged). Thrown from a setImmediate callback, it escapes every await and would
// end the process. This guard stops exactly that error from killing the process and logs it;
// anything else stays fatal. The query concerned has already failed (CONNECTION_CLOSED) or is
// bounded by the request's database budget, so nothing waits on it forever.
import { log } from "../log.ts";

/** Whether an uncaught error is the driver's null-socket write fault. */
export function isDriverWriteFault(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const stack = error.stack ?? "";
  return /null/.test(error.message) && /\bnextWrite\b/.test(stack) &&
    /postgres[@/\\][^\n]*connection\.js/.test(stack);
}

let installed = false;

/** Installs the guard once per process (the production and development entries call it). */
export function containDriverFaults(): void {
  if (installed) return;
  installed = true;
  globalThis.addEventListener("error", (event) => {
    if (!isDriverWriteFault(event.error)) return;
    event.preventDefault();
    log.error("db:driver:fault_contained", { error: String(event.error) });
  });
}
