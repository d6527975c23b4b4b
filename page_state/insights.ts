// The insights page's URL (/insights): its query is the insights API's own (`insightsQuery`),
// read into core's InsightsInput and written back from one.
import { type InsightsInput, insightsQuery } from "@/core/insights/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

/** The query of an /insights URL; unknown values throw a validation error (400). */
export function readInsightsQuery(url: URL): InsightsInput {
  return readQuery(insightsQuery, url.searchParams);
}

export function insightsHref(q: Partial<InsightsInput> = {}): string {
  return withQuery("/insights", writeQuery(insightsQuery, q, { lists: "repeat" }));
}
