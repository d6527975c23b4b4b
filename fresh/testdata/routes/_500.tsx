import type { ErrorHandler, PageProps } from "$fresh/server.ts";

// A "busy" error is answered 503 with the same page; anything else is a 500.
export const handler: ErrorHandler = (_req, ctx) =>
  ctx.error instanceof Error && ctx.error.message === "busy"
    ? ctx.render({ busy: true }, { status: 503, headers: { "retry-after": "5" } })
    : ctx.render();

export default function ServerError({ error, data }: PageProps<{ busy?: true } | undefined>) {
  if (data?.busy) return <h1>Busy, try again</h1>;
  return <h1>Server error: {error instanceof Error ? error.message : "unknown"}</h1>;
}
