// The heatmaps page's URL (/heatmaps): its query is the heatmaps API's own (`heatmapQuery`, with the
// project and page optional: the page chooses them), read into core's input and written back.
import { type HeatmapPageInput, heatmapPageQuery } from "@/core/heatmaps/schema.ts";
import type { SessionListInput } from "@/core/sessions/schema.ts";
import { sessionsHref } from "./sessions.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

/** The query of a /heatmaps URL; unknown values throw a validation error (400). */
export function readHeatmapsQuery(url: URL): HeatmapPageInput {
  return readQuery(heatmapPageQuery, url.searchParams);
}

export function heatmapsHref(q: Partial<HeatmapPageInput> = {}): string {
  return withQuery("/heatmaps", writeQuery(heatmapPageQuery, q, { lists: "comma" }));
}

const DAY_MS = 86_400_000;

/**
 * The sessions that clicked what a map shows (`clicked=` an element or `clickedCell=` a cell), in
 * the sessions list's smallest range holding the map's first day (the list has no day range: a
 * map ending before today lists the days after it too).
 */
export function mapSessionsHref(
  map: { from: string },
  projectId: string,
  clicked: Pick<SessionListInput, "clicked" | "clickedCell">,
  now = new Date(),
): string {
  const days = Math.floor(now.getTime() / DAY_MS) - Math.floor(Date.parse(map.from) / DAY_MS);
  const range = days <= 0 ? "today" : days < 7 ? "7d" : days < 30 ? "30d" : "all";
  return sessionsHref({ projectIds: [projectId], range, ...clicked });
}
