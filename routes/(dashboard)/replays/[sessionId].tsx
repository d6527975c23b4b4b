import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { SessionFacts } from "../../../components/replay/SessionFacts.tsx";
import { AppError } from "../../../core/errors.ts";
import { sessionDetail } from "../../../core/sessions/detail.ts";
import ReplayPlayer from "../../../islands/ReplayPlayer.tsx";
import type { DashboardState } from "../_middleware.ts";

/** A session counts as live while open, or while its last event is this recent. */
const LIVE_WITHIN_MS = 120_000;

type Session = Awaited<ReturnType<typeof sessionDetail>>;

interface Data {
  session: Session;
  live: boolean;
  /** Real offset from `?t=`, 0 when absent or not a whole number of ms. */
  startAt: number;
}

export default function Replay({ data }: PageProps<Data, DashboardState>) {
  const { session, live, startAt } = data;
  const title = session.trackedUser?.displayName ?? "Anonymous session";
  return (
    <div class="replay-page">
      <Head>
        <title>Replay · {title} · Playhead</title>
      </Head>
      <div class="replay-heading">
        <h1>Replay</h1>
        <span class="muted">{session.externalId}</span>
      </div>
      <SessionFacts session={session} />
      <ReplayPlayer
        sessionId={session.id}
        startedAt={Date.parse(session.startedAt)}
        duration={session.duration}
        eventCount={session.eventCount}
        markers={session.markers}
        live={live}
        startAt={startAt}
      />
    </div>
  );
}

function offsetParam(value: string | null): number {
  return value && /^\d{1,12}$/.test(value) ? Number(value) : 0;
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.renderNotFound();
    const session = await sessionDetail(deps, viewer, ctx.params.sessionId).catch((error) => {
      if (error instanceof AppError && error.kind === "not_found") return null;
      throw error;
    });
    if (!session) return ctx.renderNotFound();
    const endedAt = session.endedAt ? Date.parse(session.endedAt) : null;
    const live = endedAt === null || Date.now() - endedAt < LIVE_WITHIN_MS;
    const startAt = offsetParam(ctx.url.searchParams.get("t"));
    return ctx.render({ session, live, startAt });
  },
};
