import type { FreshContext } from "$fresh/server.ts";
import type { FixtureState } from "@/fresh/testdata/routes/_middleware.ts";

export const handler = [
  (_req: Request, ctx: FreshContext<FixtureState>) => {
    ctx.state.trail.push("admin");
    return ctx.next();
  },
  (req: Request, ctx: FreshContext<FixtureState>) => {
    if (req.headers.get("x-deny")) return new Response("denied", { status: 403 });
    ctx.state.trail.push("admin2");
    return ctx.next();
  },
];
