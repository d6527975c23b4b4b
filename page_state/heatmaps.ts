// The heatmaps page's URL (/heatmaps): its query is the heatmaps API's own (`heatmapQuery`, with the
// project and page optional: the page chooses them), read into core's input and written back.
import { type HeatmapPageInput, heatmapPageQuery } from "@/core/heatmaps/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

/** The query of a /heatmaps URL; unknown values throw a validation error (400). */
export function readHeatmapsQuery(url: URL): HeatmapPageInput {
  return readQuery(heatmapPageQuery, url.searchParams);
}

export function heatmapsHref(q: Partial<HeatmapPageInput> = {}): string {
  return withQuery("/heatmaps", writeQuery(heatmapPageQuery, q, { lists: "comma" }));
}
