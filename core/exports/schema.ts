// Wire schemas of a replay's export (docs/decisions.md "Exports"): the format asked for, and the
// session's metadata at the head of the JSON file.
import { z } from "zod";

/** What the JSON export leaves out unless asked for (identify()'s events it never holds). */
export const EXPORT_EXTRAS = ["network", "custom"] as const;
export type ExportExtra = (typeof EXPORT_EXTRAS)[number];

export const exportQuery = z.object({
  format: z.enum(["html", "json"]).meta({
    description: "`html`: one file that plays offline; `json`: the raw rrweb events",
  }),
  include: z.string().max(100).transform((text) =>
    text.split(",").map((kind) => kind.trim()).filter(Boolean)
  ).pipe(z.array(z.enum(EXPORT_EXTRAS))).transform((kinds) => [...new Set(kinds)]).optional()
    .meta({
      description: "`json` only, a comma list: `network` adds the recorded requests " +
        "(`rrweb/network@1` events), `custom` the custom events (never identify()'s); " +
        "without it the file has neither, and its `omitted` says so",
    }),
});
export type ExportFormat = z.output<typeof exportQuery>["format"];

/** The recording's facts, without who was recorded (the file is made to be handed on). */
export const exportedSession = z.strictObject({
  id: z.string(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  duration: z.number().int().meta({ description: "ms" }),
  eventCount: z.number().int(),
  url: z.string().nullable(),
  screenWidth: z.number().int().nullable(),
  screenHeight: z.number().int().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.string().nullable(),
  language: z.string().nullable(),
});
export type ExportedSession = z.output<typeof exportedSession>;
