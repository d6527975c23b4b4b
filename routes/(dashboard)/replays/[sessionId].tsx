// /replays/[sessionId]: one session's replay, opened at `?t=` (page_state/replay.ts), with its
// facts; the frame it opens at (the first, or the moment's) drawn by the server.
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { ServerFrameSource } from "@/components/replay/ServerFrame.tsx";
import { SessionFacts } from "@/components/replay/SessionFacts.tsx";
import { ReplayTools } from "@/components/replay/ReplayTools.tsx";
import { listComments } from "@/core/comments/comments.ts";
import type { CommentOut } from "@/core/comments/schema.ts";
import { atLeast } from "@/core/permissions.ts";
import CommentThread from "@/islands/CommentThread.tsx";
import { sessionDetail } from "@/core/sessions/detail.ts";
import { openingFrame } from "@/core/sessions/opening_frame.ts";
import { lastClosedAt, liveForMs as liveFor } from "@/core/sessions/live.ts";
import ReplayPlayer from "@/islands/ReplayPlayer.tsx";
import { firstEventsPath } from "@/player/load/events_url.ts";
import type { ServedFrame } from "@/core/sessions/frame_job.ts";
import { replayPageHeaders } from "@/http/replay_headers.ts";
import { orNull } from "@/http/found.ts";
import { readReplayComment, readReplayMoment, replayFrameHref } from "@/page_state/replay.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";
import { settleAll } from "@/http/settle_all.ts";
import { auditReplayView } from "@/core/audit/views.ts";
import { titleText } from "@/utils/format.ts";
import { VisitorText } from "@/components/ui/VisitorText.tsx";

type Session = Awaited<ReturnType<typeof sessionDetail>>;

interface Data {
  session: Session;
  /** How much longer the session can still grow (0: it cannot). */
  liveForMs: number;
  /** Real offset from `?t=`, 0 when absent or not a whole number of ms. */
  startAt: number;
  /** Drawn into the player slot before any script runs: the first frame, or the moment's. */
  frame: ServedFrame | null;
  comments: CommentOut[];
  /** `?comment=`: the comment the page was opened at. */
  highlight: string | null;
}

export default function Replay({ data, state }: PageProps<Data, DashboardState>) {
  const { session, liveForMs, startAt, frame, comments } = data;
  const { viewer } = state;
  const canManage = !!viewer.role && atLeast(viewer.role, "ADMIN");
  const linksAllowed = state.organizations.find((o) => o.active)?.allowPublicLinks ?? true;
  const who = session.trackedUser?.displayName ?? "Anonymous visitor";
  const entry = entryPage(session.url);
  const title = titleText(entry ? `${who} on ${entry}` : who);
  return (
    <div class="replay-page">
      <Head>
        <title>Replay · {title} · Playhead</title>
        {
          /* The player's first events request, under way before its code arrives (it asks for the
            same URL and is answered from this). */
        }
        <link
          rel="preload"
          as="fetch"
          crossorigin="anonymous"
          href={firstEventsPath(session.id, startAt)}
        />
      </Head>
      <div class="replay-heading">
        <h1>
          <span class="visually-hidden">Replay:</span>
          <VisitorText text={who} class="replay-who" testId="replay-who" />
          {entry && (
            <>
              <span class="replay-on">on</span>
              <VisitorText text={entry} class="replay-entry" testId="replay-entry" />
            </>
          )}
        </h1>
        <ReplayTools
          sessionId={session.id}
          canManage={canManage}
          linksAllowed={linksAllowed}
          pinned={session.pinned}
        />
      </div>
      <ServerFrameSource.Provider value={frameSource(session.id, startAt, frame)}>
        <ReplayPlayer
          sessionId={session.id}
          startedAt={Date.parse(session.startedAt)}
          duration={session.duration}
          eventCount={session.eventCount}
          markers={session.markers}
          trigger={session.triggeredAt === null
            ? null
            : { at: session.triggeredAt, reason: session.recordingReason }}
          liveForMs={liveForMs}
          startAt={startAt}
          firstFrame={frame && { width: frame.width, height: frame.height }}
          comments={comments}
        />
      </ServerFrameSource.Provider>
      <CommentThread
        sessionId={session.id}
        comments={comments}
        viewerId={viewer.userId}
        canModerate={canManage}
        highlight={data.highlight}
      />
      {/* Below the player, so its controls are on screen at 1280 × 800 and 1024 × 768. */}
      <SessionFacts session={session} />
    </div>
  );
}

/** The server frame's iframe attribute: carried in the page, or loaded from its own address. */
function frameSource(sessionId: string, startAt: number, frame: ServedFrame | null): string {
  if (frame?.document) return `src="${replayFrameHref(sessionId, startAt)}"`;
  return frame ? `srcdoc="${frame.srcdoc}"` : "";
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.renderNotFound();
    const id = ctx.params.sessionId;
    const startAt = readReplayMoment(ctx.url);
    const found = await orNull(settleAll([
      sessionDetail(deps, viewer, id),
      listComments(deps, viewer, id).then((list) => list.comments),
      // At `?t=` the frame is the moment's (its events applied on the server).
      openingFrame(deps, viewer, id, startAt),
    ]));
    if (!found) return ctx.renderNotFound();
    const [session, comments, frame] = found;
    await auditReplayView(deps, viewer, session.id);
    const highlight = readReplayComment(ctx.url);
    const endedAt = session.endedAt ? new Date(session.endedAt) : null;
    const liveForMs = liveFor(endedAt, new Date(), lastClosedAt(session.markers));
    return ctx.render({ session, liveForMs, startAt, frame, comments, highlight }, {
      headers: replayPageHeaders(Boolean(frame?.document)),
    });
  },
};

/** The session's first page, as its path (the heading names the visit by it). */
function entryPage(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
