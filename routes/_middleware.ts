// Per-request page state: the app's dependencies (put there by app.ts), the signed-in viewer
// (resolved by the same function as the /api middleware) and the request start time, reported
// back as a Server-Timing header.
import type { FreshContext } from "$fresh/server.ts";
import type { AppDeps } from "../app_deps.ts";
import { resolveViewer, type Viewer } from "../core/viewer.ts";

export interface State {
  deps: AppDeps;
  /** null when signed out. */
  viewer: Viewer | null;
  /** performance.now() when the page layer received the request. */
  requestStart: number;
}

export async function handler(req: Request, ctx: FreshContext<State>) {
  ctx.state.requestStart = performance.now();
  ctx.state.viewer = await resolveViewer(ctx.state.deps, req.headers.get("cookie"));
  const response = await ctx.next();
  const duration = (performance.now() - ctx.state.requestStart).toFixed(1);
  response.headers.append("server-timing", `page;dur=${duration}`);
  return response;
}
