// The error page: 503 with Retry-After while the database is unavailable, else a plain 500.
import type { ErrorHandler, PageProps } from "$fresh/server.ts";
import { Head } from "$fresh/runtime.ts";
import { databaseRetryAfter } from "@/http/database_budget.ts";
import { log } from "@/log.ts";

interface Data {
  /** The database could not be reached: a 503, not a fault of the page. */
  unavailable?: true;
}

// A database outage is answered as the API answers it: 503 with Retry-After, logged
// at warn, never kept by a cache. Any other error stays a 500, which the page layer logs.
export const handler: ErrorHandler = (req, ctx) => {
  const headers = { "cache-control": "no-store" };
  const retryAfter = databaseRetryAfter(ctx.error);
  if (retryAfter === null) return ctx.render(undefined, { headers });
  log.warn("db:unavailable", {
    method: req.method,
    path: new URL(req.url).pathname,
    error: String(ctx.error),
  });
  return ctx.render({ unavailable: true } satisfies Data, {
    status: 503,
    headers: { ...headers, "retry-after": String(retryAfter) },
  });
};

// The error itself is logged by the server; the page never shows it (no stack traces leak).
export default function ServerError({ data }: PageProps<Data | undefined>) {
  if (data?.unavailable) {
    return (
      <>
        <Head>
          <title>Temporarily unavailable · Playhead</title>
        </Head>
        <h1>Temporarily unavailable</h1>
        <p>
          The database cannot be reached right now, so this page could not be loaded or saved. Try
          again in a few seconds.
        </p>
      </>
    );
  }
  return (
    <>
      <Head>
        <title>Error · Playhead</title>
      </Head>
      <h1>Something went wrong</h1>
      <p>
        The server could not complete this request. Try again in a moment.
      </p>
    </>
  );
}
