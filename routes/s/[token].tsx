// A public link's page (docs/decisions.md "Shares"): the replay of one session's window, signed
// out, without the dashboard's frame. A link that does not open (unknown, revoked, expired, turned
// off, its session deleted) is the same 404 page whatever the reason. It holds a place among the
// link's and the address's requests in flight (http/link_limits.ts) while it is made.
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, Handlers, PageProps, RouteConfig } from "$fresh/server.ts";
import { SharedCaption, ShareNotFound, ShareThrottled } from "@/components/shares/SharePage.tsx";
import { AppError } from "@/core/errors.ts";
import { SHARE_HEADERS } from "@/http/replay_headers.ts";
import { linkLimitsOf } from "@/http/link_limits.ts";
import { openSharedSession, type SharedReplay, sharedReplay } from "@/core/shares/open.ts";
import ReplayPlayer from "@/islands/ReplayPlayer.tsx";
import type { State } from "@/routes/_middleware.ts";

type Data =
  | { kind: "replay"; token: string; replay: SharedReplay }
  | { kind: "not_found" }
  | { kind: "throttled"; retryAfter: number; busy?: true };

export default function SharedReplayPage({ data }: PageProps<Data>) {
  if (data.kind === "not_found") return <ShareNotFound />;
  if (data.kind === "throttled") {
    return <ShareThrottled retryAfter={data.retryAfter} busy={data.busy} />;
  }
  const { replay, token } = data;
  return (
    <div class="share-page">
      <Head>
        <title>Shared replay · Playhead</title>
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
      </Head>
      <SharedCaption fromMs={replay.fromMs} toMs={replay.toMs} />
      <div class="replay-page">
        <ReplayPlayer
          sessionId="shared"
          eventsPath={`/s/${token}/events`}
          startedAt={replay.startedAt}
          duration={replay.duration}
          eventCount={0}
          markers={replay.markers}
          liveForMs={0}
          startAt={0}
          origin={replay.fromMs}
          firstFrame={null}
          shared
          console={replay.showConsole}
        />
      </div>
    </div>
  );
}

const throttled = (ctx: FreshContext<State, Data>, retryAfter: number, busy?: true) =>
  ctx.render({ kind: "throttled", retryAfter, busy }, {
    status: 429,
    headers: { ...SHARE_HEADERS, "retry-after": String(retryAfter) },
  });

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { deps, clientAddress } = ctx.state;
    const token = ctx.params.token;
    const address = clientAddress ?? "unknown";
    let leave: () => void;
    try {
      leave = linkLimitsOf(deps).enter(token, address);
    } catch (error) {
      if (!(error instanceof AppError && error.kind === "rate_limited")) throw error;
      return throttled(ctx, Number(error.details.retryAfter ?? 1), true);
    }
    try {
      const opened = await openSharedSession(deps, token, address);
      if (opened === null) {
        return ctx.render({ kind: "not_found" }, { status: 404, headers: SHARE_HEADERS });
      }
      if ("retryAfter" in opened) return throttled(ctx, opened.retryAfter);
      const replay = await sharedReplay(deps, opened);
      return ctx.render({ kind: "replay", token, replay }, { headers: SHARE_HEADERS });
    } finally {
      leave();
    }
  },
};

// No top bar: it would show a signed-in visitor's organizations beside another's recording.
export const config: RouteConfig = { skipInheritedLayouts: true };
