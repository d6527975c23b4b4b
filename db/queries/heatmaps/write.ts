// A session's share of the heatmaps replaced as a whole (migration 0040): derived again from all of
// its batches, so a second derivation never counts a click twice.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface SessionShare {
  views: {
    path: string;
    band: string;
    /** UTC day of the view, `YYYY-MM-DD`. */
    day: string;
    /** Loads and navigations to the page (a resize into this band counts none). */
    views: number;
    /** The deepest document px shown, and the viewport's height (the fold) at the first view. */
    depthPx: number;
    foldPx: number;
  }[];
  clicks: {
    path: string;
    band: string;
    day: string;
    selector: string;
    /** The cell: 1 % of the page's width across, CELL_PX down the document. */
    cellX: number;
    cellY: number;
    clicks: number;
    /** Rage bursts started and dead clicks, by the SDK's signals (each marks one click). */
    rage: number;
    dead: number;
    /** The first click's time, epoch ms (the recording's timestamps): where its replay opens. */
    firstMs: number;
  }[];
}

/** Rows per insert statement (12 parameters each, well under PostgreSQL's 65,535). */
const CHUNK = 1000;

export async function replaceSessionShare(
  db: Kysely<Database>,
  session: { id: string; projectId: string },
  share: SessionShare,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The session's row locked: an erasure racing this either runs first (nothing is written:
    // the row is gone) or waits until this commits, then deletes what it wrote.
    const alive = await trx.selectFrom("sessions").select("id").where("id", "=", session.id)
      .forUpdate().executeTakeFirst();
    if (!alive) return;
    await trx.deleteFrom("heatmap_views").where("session_id", "=", session.id).execute();
    await trx.deleteFrom("heatmap_clicks").where("session_id", "=", session.id).execute();
    const base = { session_id: session.id, project_id: session.projectId };
    for (let at = 0; at < share.views.length; at += CHUNK) {
      await trx.insertInto("heatmap_views").values(
        share.views.slice(at, at + CHUNK).map((v) => ({
          ...base,
          path: v.path,
          band: v.band,
          day: v.day,
          views: v.views,
          depth_px: v.depthPx,
          fold_px: v.foldPx,
        })),
      ).execute();
    }
    for (let at = 0; at < share.clicks.length; at += CHUNK) {
      await trx.insertInto("heatmap_clicks").values(
        share.clicks.slice(at, at + CHUNK).map((c) => ({
          ...base,
          path: c.path,
          band: c.band,
          day: c.day,
          selector: c.selector,
          cell_x: c.cellX,
          cell_y: c.cellY,
          clicks: c.clicks,
          rage: c.rage,
          dead: c.dead,
          first_ms: c.firstMs,
        })),
      ).execute();
    }
  });
}
