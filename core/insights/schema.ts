// Wire schemas of GET /api/insights: where sessions went wrong, over a range of days.
import { z } from "zod";

const idList = z.string().max(4000).transform((text) =>
  text.split(",").map((id) => id.trim()).filter(Boolean)
).transform((ids) => ids.length ? ids : undefined);

export const insightsQuery = z.object({
  range: z.enum(["today", "7d", "30d", "all"]).default("7d").meta({
    description: "sessions created today (UTC), in the last 7 or 30 days, or all that are kept " +
      "(sessions are deleted 7 days after they are created)",
  }),
  projectIds: idList.optional().meta({ description: "comma separated; others' are ignored" }),
});
export type InsightsInput = z.output<typeof insightsQuery>;
export type InsightsRange = InsightsInput["range"];

const iso = z.iso.datetime();
const count = z.number().int();

const element = z.strictObject({
  selector: z.string(),
  text: z.string().meta({ description: "the element's text, as last seen (privacy applied)" }),
  sessions: count,
  users: count.meta({ description: "distinct tracked users (anonymous sessions not counted)" }),
  lastSeenAt: iso,
});

export const insights = z.strictObject({
  rageClicks: z.array(element),
  deadClicks: z.array(element),
  errors: z.array(z.strictObject({
    fingerprint: z.string().meta({
      description: "the group: the message with URLs, ids and numbers folded, plus the top " +
        "frame of its stack; the sessions list's `error` filter takes it",
    }),
    message: z.string().meta({ description: "the group's latest message" }),
    stack: z.string().meta({
      description: 'the latest error\'s stack, one frame a line; "" without one',
    }),
    sessions: count,
    users: count,
    firstSeenAt: iso,
    lastSeenAt: iso,
  })),
  endpoints: z.array(z.strictObject({
    endpoint: z.string().meta({
      description: "method and path with ids folded, e.g. `GET /api/orders/:id`",
    }),
    sessions: count.meta({
      description: "sessions with a request to it answered 5xx or not at all",
    }),
    failures: count,
    lastStatus: count.meta({ description: "0: no answer" }),
    lastSeenAt: iso,
  })),
  pages: z.array(z.strictObject({
    pathname: z.string(),
    sessions: count,
    errors: count,
    rageClicks: count,
    deadClicks: count,
  })),
  daily: z.array(z.strictObject({
    day: z.iso.date().meta({ description: "UTC day" }),
    errors: count,
    rageClicks: count,
    deadClicks: count,
  })),
  hourly: z.array(z.strictObject({
    hour: iso.meta({ description: "the UTC hour's start" }),
    errors: count,
    rageClicks: count,
    deadClicks: count,
  })).meta({ description: "today's hours with signals (`range=today`); empty for other ranges" }),
});
export type Insights = z.output<typeof insights>;
