// Ingest admission, so dashboard reads stay fast while ingest runs. One JavaScript
// thread and one connection pool serve everything, so each ingest request in progress puts its
// steps (gzip, hashing, the statement and its answer) in the queues a dashboard read waits in at
// each of its own awaits. Decoded requests past `limit` wait here instead: a read then queues
// behind at most `limit` of them. It sits after the body is read, so a slow upload holds no turn
// (its own timeout, HTTP_BODY_TIMEOUT_MS, deals with it).
import type { MiddlewareHandler } from "hono";
import pLimit from "p-limit";

export function ingestAdmission(limit: number): MiddlewareHandler {
  const run = pLimit(limit);
  return (_c, next) => run(next);
}
