// A public link's events (docs/decisions.md "Shares"): the one endpoint its token opens, cut to
// its window on the server (core/shares/window_events.ts, in the cut worker, cached per link), in
// the dashboard's events shape. Its place among the link's and the address's requests in flight
// (http/link_limits.ts) is held until the last batch is sent.
import type { Handlers } from "$fresh/server.ts";
import { AppError, notFound, rateLimited } from "@/core/errors.ts";
import { onEnd } from "@/core/on_end.ts";
import { errorResponse } from "@/http/errors.ts";
import { EVENTS_HEADERS, eventsBody } from "@/http/events_body.ts";
import { linkLimitsOf } from "@/http/link_limits.ts";
import { SHARE_HEADERS } from "@/http/replay_headers.ts";
import { openSharedSession, sharedEvents } from "@/core/shares/open.ts";
import type { State } from "@/routes/_middleware.ts";

/** An error as the API answers it (http/errors.ts), with a link's headers. */
const failed = (error: AppError) => errorResponse(error, { ...SHARE_HEADERS, ...EVENTS_HEADERS });

/** Too many requests in flight, or too many cuts: answered; anything else is the 500 page's. */
const isRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && (error.kind === "rate_limited" || error.kind === "unavailable");

export const handler: Handlers<unknown, State> = {
  async GET(_req, ctx) {
    const { deps, clientAddress } = ctx.state;
    const address = clientAddress ?? "unknown";
    let leave: () => void;
    try {
      leave = linkLimitsOf(deps).enter(ctx.params.token, address);
    } catch (error) {
      if (isRefusal(error)) return failed(error);
      throw error;
    }
    try {
      const opened = await openSharedSession(deps, ctx.params.token, address);
      if (opened === null) {
        leave();
        return failed(notFound("link"));
      }
      if ("retryAfter" in opened) {
        leave();
        return failed(rateLimited("too many unknown links", opened.retryAfter));
      }
      const body = eventsBody(onEnd(await sharedEvents(deps, opened), leave));
      return new Response(body, { headers: { ...SHARE_HEADERS, ...EVENTS_HEADERS } });
    } catch (error) {
      leave();
      if (isRefusal(error)) return failed(error);
      throw error;
    }
  },
};
