import type { FreshContext } from "$fresh/server.ts";

export interface FixtureState {
  trail: string[];
  deps?: string;
}

export async function handler(req: Request, ctx: FreshContext<FixtureState>) {
  ctx.state.trail = ["root"];
  if (new URL(req.url).searchParams.has("stop")) return new Response("stopped by root");
  const response = await ctx.next();
  response.headers.set("x-root-middleware", "after");
  return response;
}
