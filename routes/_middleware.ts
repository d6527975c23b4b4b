// Per-request page state: the app's dependencies (put there by app.ts) and the request start time,
// reported back as a Server-Timing header. The signed-in viewer joins this state later.
import type { FreshContext } from "$fresh/server.ts";
import type { AppDeps } from "../app_deps.ts";

export interface State {
  deps: AppDeps;
  /** performance.now() when the page layer received the request. */
  requestStart: number;
}

export async function handler(_req: Request, ctx: FreshContext<State>) {
  ctx.state.requestStart = performance.now();
  const response = await ctx.next();
  const duration = (performance.now() - ctx.state.requestStart).toFixed(1);
  response.headers.append("server-timing", `page;dur=${duration}`);
  return response;
}
