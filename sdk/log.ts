// SDK diagnostics. The console methods are captured at load, before the console-record plugin
// wraps them, so the SDK's own messages never end up inside the customer's recording.

const error = console.error.bind(console);
const warn = console.warn.bind(console);

/** Logs a problem the customer must see (invalid options, rejected batches). */
export function logError(message: string, ...details: unknown[]): void {
  error(`[playhead] ${message}`, ...details);
}

/** Logs a recoverable problem (a retry, a dropped event). */
export function logWarn(message: string, ...details: unknown[]): void {
  warn(`[playhead] ${message}`, ...details);
}
