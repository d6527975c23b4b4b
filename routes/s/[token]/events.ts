// A public link's events (docs/decisions.md "Shares"): the one endpoint its token opens, cut to
// its window on the server (core/shares/window_events.ts), in the dashboard's events shape.
import type { Handlers } from "$fresh/server.ts";
import { EVENTS_HEADERS, eventsBody } from "@/http/events_body.ts";
import { SHARE_HEADERS } from "@/core/shares/headers.ts";
import { openSharedSession, sharedEvents } from "@/core/shares/open.ts";
import type { State } from "@/routes/_middleware.ts";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { ...SHARE_HEADERS, ...EVENTS_HEADERS, ...headers },
  });

export const handler: Handlers<unknown, State> = {
  async GET(_req, ctx) {
    const { deps, clientAddress } = ctx.state;
    const opened = await openSharedSession(deps, ctx.params.token, clientAddress ?? "unknown");
    if (opened === null) return json(404, { kind: "not_found", message: "link not found" });
    if ("retryAfter" in opened) {
      const { retryAfter } = opened;
      return json(429, { kind: "rate_limited", message: "too many unknown links", retryAfter }, {
        "retry-after": String(retryAfter),
      });
    }
    const body = eventsBody(await sharedEvents(deps, opened));
    return new Response(body, { headers: { ...SHARE_HEADERS, ...EVENTS_HEADERS } });
  },
};
