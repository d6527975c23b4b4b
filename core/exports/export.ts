// One replay exported (docs/decisions.md "Exports"), for every member: the session's stored event
// bytes are counted first, and a session past the limit is refused (413) before anything is read;
// otherwise its batches stream into the file, never held whole (the HTML file reads them twice:
// first for the images to fetch, core/exports/inline_images.ts), as stored: the cut worker
// (core/shares/cut_pool.ts) decodes and cuts them.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { notFound, payloadTooLarge } from "@/core/errors.ts";
import { activeOrganization } from "@/core/org_access.ts";
import {
  batchMetas,
  findSession,
  sessionMarkers,
  type SessionRow,
} from "@/db/queries/sessions/detail.ts";
import { type StoredBatch, storedBatches } from "@/core/sessions/detail.ts";
import type { MarkerOut } from "@/core/sessions/schema.ts";
import type { ExportedSession } from "./schema.ts";
import { storedIso, storedIsoOr } from "@/core/stored_time.ts";
import { markerWithPageAddress, pageAddress } from "@/core/shares/addresses.ts";
import { recordAudit } from "@/core/audit/record.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store">>;

const MIB = 1024 * 1024;

export interface SessionExport {
  session: ExportedSession;
  markers: MarkerOut[];
  batches: AsyncIterable<StoredBatch>;
  /** The same batches read again from the start. */
  reread: () => Promise<AsyncIterable<StoredBatch>>;
  /** What the limit leaves after the stored events: the room of the file's images. */
  room: number;
}

function exported(s: SessionRow): ExportedSession {
  return {
    id: s.id,
    startedAt: storedIsoOr(s.started_at, s.created_at),
    endedAt: storedIso(s.ended_at),
    duration: s.duration,
    eventCount: s.event_count,
    url: s.url === null ? null : pageAddress(s.url),
    screenWidth: s.screen_width,
    screenHeight: s.screen_height,
    browser: s.browser,
    os: s.os,
    device: s.device,
    language: s.language,
  };
}

/** The markers an export's History shows: pages, frustration signals and errors, no identities. */
const EXPORTED_KINDS = new Set(["url", "rage_click", "dead_click", "error"]);

export async function sessionExport(
  deps: Deps,
  viewer: Viewer,
  id: string,
  maxBytes: number,
  /** What the audit row says of the file (its format, what it includes). */
  details: Record<string, unknown> = {},
): Promise<SessionExport> {
  const db = deps.db.kysely;
  const organizationId = activeOrganization(viewer);
  const session = await findSession(db, organizationId, id);
  if (!session) throw notFound("session");
  const bytes = (await batchMetas(db, session)).reduce((sum, m) => sum + m.bytes, 0);
  if (bytes > maxBytes) {
    throw payloadTooLarge(
      `this session's events take ${(bytes / MIB).toFixed(1)} MiB, over the ` +
        `${(maxBytes / MIB).toFixed(1)} MiB an export can hold; share a link to it instead`,
    );
  }
  const audit = { organizationId, targetId: session.id, details: { ...details, bytes } };
  await recordAudit(db, viewer, { ...audit, action: "session.export" });
  const markers = (await sessionMarkers(db, session.id, null))
    .filter((m) => EXPORTED_KINDS.has(m.kind))
    .map((m): MarkerOut => ({
      timestamp: m.ts,
      kind: m.kind,
      data: markerWithPageAddress(m.data),
    }));
  return {
    session: exported(session),
    markers,
    batches: await storedBatches(deps, session),
    reread: () => storedBatches(deps, session),
    room: maxBytes - bytes,
  };
}
