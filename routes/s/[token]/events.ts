// A public link's events (docs/decisions.md "Shares"): the one endpoint its token opens, cut to
// its window on the server (core/shares/window_events.ts, in the cut worker, cached per link), in
// the dashboard's events shape. Its place among the link's and the address's requests in flight
// (http/link_limits.ts) is held until the last batch is sent.
import type { Handlers } from "$fresh/server.ts";
import { AppError, errorBody } from "@/core/errors.ts";
import { onEnd } from "@/core/on_end.ts";
import { EVENTS_HEADERS, eventsBody } from "@/http/events_body.ts";
import { linkLimitsOf } from "@/http/link_limits.ts";
import { SHARE_HEADERS } from "@/core/shares/headers.ts";
import { openSharedSession, sharedEvents } from "@/core/shares/open.ts";
import type { State } from "@/routes/_middleware.ts";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...SHARE_HEADERS, ...EVENTS_HEADERS, ...headers },
  });

/** Too many requests in flight, or too many cuts: the error body with its Retry-After. */
function refused(error: AppError): Response {
  const retryAfter = String(error.details.retryAfter ?? 1);
  return json(error.status, errorBody(error), { "retry-after": retryAfter });
}

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
      if (isRefusal(error)) return refused(error);
      throw error;
    }
    try {
      const opened = await openSharedSession(deps, ctx.params.token, address);
      if (opened === null) {
        leave();
        return json(404, { kind: "not_found", message: "link not found" });
      }
      if ("retryAfter" in opened) {
        leave();
        const { retryAfter } = opened;
        return json(429, { kind: "rate_limited", message: "too many unknown links", retryAfter }, {
          "retry-after": String(retryAfter),
        });
      }
      const body = eventsBody(onEnd(await sharedEvents(deps, opened), leave));
      return new Response(body, { headers: { ...SHARE_HEADERS, ...EVENTS_HEADERS } });
    } catch (error) {
      leave();
      if (isRefusal(error)) return refused(error);
      throw error;
    }
  },
};
