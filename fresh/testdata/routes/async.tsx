import type { FreshContext } from "$fresh/server.ts";

export default async function AsyncPage(_req: Request, ctx: FreshContext) {
  const value = await Promise.resolve(ctx.url.searchParams.get("v") ?? "none");
  return <p id="async">async {value}</p>;
}
