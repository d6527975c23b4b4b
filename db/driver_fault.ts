// postgres.js 3.4.9 can throw from a timer after a connection closed under load
// (`Cannot read properties of null (reading 'write') at nextWrite`, porsager/postgres #1154 and
// #1208, fixes unmerged). Thrown from a setImmediate callback, it escapes every await and would
// end the process; and once thrown through Deno's immediate queue it leaves that queue broken, so
// the next immediate ends the process anyway (`reading '_idleNext'`). This guard catches exactly
// that error inside the callback, before it reaches the queue, and logs it; anything else stays
// fatal. The query concerned has already failed (CONNECTION_CLOSED) or is
// bounded by the request's database budget, so nothing waits on it forever.
import { log } from "@/log.ts";

/** Whether an uncaught error is the driver's null-socket write fault. */
export function isDriverWriteFault(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const stack = error.stack ?? "";
  return /null/.test(error.message) && /\bnextWrite\b/.test(stack) &&
    /postgres[@/\\][^\n]*connection\.js/.test(stack);
}

function contained(error: unknown): void {
  log.error("db:driver:fault_contained", { error: String(error) });
}

/** `callback`, with the driver's write fault caught and logged where it is thrown. */
export function guarded<Args extends unknown[]>(
  callback: (...args: Args) => void,
): (...args: Args) => void {
  return (...args) => {
    try {
      callback(...args);
    } catch (error) {
      if (!isDriverWriteFault(error)) throw error;
      contained(error);
    }
  };
}

let installed = false;

/** Installs the guard once per process (the production and development entries call it). */
export function containDriverFaults(): void {
  if (installed) return;
  installed = true;
  // postgres.js schedules its writes with the global setImmediate.
  const setImmediate = globalThis.setImmediate;
  globalThis.setImmediate = Object.assign(
    <Args extends unknown[]>(callback: (...args: Args) => void, ...args: Args) =>
      setImmediate(guarded(callback), ...args),
    setImmediate,
  );
  // A last resort for the same fault thrown from anywhere else (a timer, a socket event).
  globalThis.addEventListener("error", (event) => {
    if (!isDriverWriteFault(event.error)) return;
    event.preventDefault();
    contained(event.error);
  });
}
