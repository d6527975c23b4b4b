// `Cache-Control: no-store` on every answer of the routes it guards (docs/decisions.md "Common API
// rules"), errors included, and noted in the OpenAPI document of each of them.
import type { MiddlewareHandler } from "hono";
import { uniqueSymbol } from "hono-openapi";

export const NO_STORE = new WeakSet<MiddlewareHandler>();

export function noStore(): MiddlewareHandler {
  const middleware: MiddlewareHandler = async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  };
  NO_STORE.add(middleware);
  // Read by api/openapi/document.ts, which adds the header to each success response.
  return Object.assign(middleware, { [uniqueSymbol]: { spec: { "x-no-store": true } } });
}
