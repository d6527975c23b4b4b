// A tracked user's data as one JSON file (ADMIN+, a data-subject request; docs/decisions.md
// "Erasure"): their traits and display-name overrides, then each session's metadata, pages (its url
// markers), other markers and comments, and an absolute link to its replay (APP_URL). Written as
// it is read, EXPORT_PAGE sessions at a time, so a user of thousands of sessions is never held in
// memory at once. The audit row `tracked_user.export` is written before the first byte.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { storedIso } from "@/core/stored_time.ts";
import {
  exportComments,
  exportMarkers,
  exportSessionsPage,
} from "@/db/queries/tracked_users/export.ts";
import { trackedUserDetail } from "./detail.ts";
import { adminOrganizationOf } from "./erase.ts";

type Deps = Pick<AppDeps, "db" | "config">;

export const EXPORT_PAGE = 200;

/** The export's file name and its chunks of JSON text; throws 403/404 before any is written. */
export async function trackedUserExport(
  deps: Deps,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<{ name: string; chunks: AsyncIterable<string> }> {
  const organizationId = await adminOrganizationOf(deps, viewer, id);
  const user = await trackedUserDetail(deps, viewer, id, now);
  await recordAudit(deps.db.kysely, viewer, {
    organizationId,
    action: "tracked_user.export",
    targetId: id,
    details: { sessions: user.sessionCount },
  });
  const head = {
    exportedAt: now.toISOString(),
    trackedUser: {
      id: user.id,
      externalId: user.externalId,
      displayName: user.displayName,
      customName: user.customName,
      projectId: user.projectId,
      projectName: user.projectName,
      traits: user.traits,
      createdAt: user.createdAt,
      lastEventAt: user.lastEventAt,
    },
  };
  const name = `playhead-user-${id}-${now.toISOString().slice(0, 10)}.json`;
  return { name, chunks: file(deps, organizationId, id, head) };
}

async function* file(
  deps: Deps,
  organizationId: string,
  userId: string,
  head: Record<string, unknown>,
): AsyncIterable<string> {
  const db = deps.db.kysely;
  yield `${JSON.stringify(head).slice(0, -1)},"sessions":[`;
  let after: string | null = null;
  let first = true;
  // Bounded: each page moves the keyset past its last id, and a short page ends it.
  for (;;) {
    const sessions = await exportSessionsPage(db, organizationId, userId, after, EXPORT_PAGE);
    if (!sessions.length) break;
    const ids = sessions.map((s) => s.id);
    const markers = groupBy(await exportMarkers(db, ids));
    const comments = groupBy(await exportComments(db, ids));
    const out = sessions.map((s) => {
      const own = markers.get(s.id) ?? [];
      return JSON.stringify({
        id: s.id,
        externalId: s.external_id,
        projectId: s.project_id,
        replayUrl: `${deps.config.appUrl}/replays/${encodeURIComponent(s.id)}`,
        startedAt: storedIso(s.started_at),
        endedAt: storedIso(s.ended_at),
        durationMs: Number(s.duration),
        url: s.url,
        referrer: s.referrer,
        userAgent: s.user_agent,
        browser: s.browser,
        os: s.os,
        device: s.device,
        screen: { width: s.screen_width, height: s.screen_height },
        language: s.language,
        eventCount: s.event_count,
        signals: {
          errors: s.error_count,
          rageClicks: s.rage_click_count,
          deadClicks: s.dead_click_count,
        },
        recordingReason: s.recording_reason,
        pages: own.filter((m) => m.kind === "url").map((m) => ({
          at: Number(m.ts),
          ...page(m.data),
        })),
        markers: own.filter((m) => m.kind !== "url")
          .map((m) => ({ at: Number(m.ts), kind: m.kind, data: m.data })),
        comments: (comments.get(s.id) ?? []).map((c) => ({
          offsetMs: c.offset_ms,
          text: c.text,
          createdAt: storedIso(c.created_at),
        })),
      });
    });
    yield (first ? "" : ",") + out.join(",");
    first = false;
    after = ids[ids.length - 1];
    if (sessions.length < EXPORT_PAGE) break;
  }
  yield "]}";
}

function page(data: unknown): { url: unknown; pathname: unknown } {
  const d = (data ?? {}) as { url?: unknown; pathname?: unknown };
  return { url: d.url ?? null, pathname: d.pathname ?? null };
}

function groupBy<T extends { session_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.session_id);
    if (list) list.push(row);
    else out.set(row.session_id, [row]);
  }
  return out;
}
