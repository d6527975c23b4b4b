// Row types of heatmaps (migration 0040): the queue of sessions to derive and each session's
// share of its pages' maps, part of `Database` in db/schema.ts.
import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A UTC day, written and compared as `YYYY-MM-DD` (never selected: the drivers differ on dates). */
type Day = string;

export interface HeatmapQueueTable {
  project_id: string;
  session_external_id: string;
  queued_at: ColumnType<Date, Date | string | undefined, Date | string>;
  due_at: Timestamp;
  claimed_until: Timestamp | null;
}

export interface HeatmapViewTable {
  session_id: string;
  project_id: string;
  path: string;
  band: string;
  day: Day;
  views: number;
  depth_px: number;
  fold_px: number;
}

export interface HeatmapClickTable {
  session_id: string;
  project_id: string;
  path: string;
  band: string;
  day: Day;
  selector: string;
  cell_x: number;
  cell_y: number;
  clicks: number;
  rage: number;
  dead: number;
  /** The row's first click, epoch ms (migration 0041); null: derived before it (open at start). */
  first_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface HeatmapTables {
  heatmap_queue: HeatmapQueueTable;
  heatmap_views: HeatmapViewTable;
  heatmap_clicks: HeatmapClickTable;
}
