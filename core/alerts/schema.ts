// Wire schemas of alert rules and their deliveries (docs/decisions.md "Alerts").
import { z } from "zod";

export const ALERT_SIGNALS = [
  "rage_click",
  "dead_click",
  "error",
  "network_error",
  "saved_search",
] as const;
export type AlertSignal = (typeof ALERT_SIGNALS)[number];
export const ALERT_GROUPS = ["page", "selector", "error_group", "endpoint"] as const;
export type AlertGroup = (typeof ALERT_GROUPS)[number];

/** The groups each signal may be counted by (null, one count for the project, always). */
export const GROUPS_OF: Record<AlertSignal, readonly AlertGroup[]> = {
  rage_click: ["page", "selector"],
  dead_click: ["page", "selector"],
  error: ["page", "error_group"],
  network_error: ["page", "endpoint"],
  saved_search: [],
};

export const MAX_EMAILS = 10;

const deliver = z.strictObject({
  webhook: z.string().max(2000).optional(),
  slack: z.string().max(2000).optional(),
  email: z.array(z.email().max(254)).min(1).max(MAX_EMAILS).optional(),
});

const ruleFields = {
  name: z.string().trim().min(1).max(200),
  threshold: z.number().int().min(1).max(10_000),
  windowMinutes: z.number().int().min(5).max(1_440),
  cooldownMinutes: z.number().int().min(0).max(10_080),
  deliver,
};

export const createAlertRuleBody = z.strictObject({
  projectId: z.string().min(1).max(100),
  signal: z.enum(ALERT_SIGNALS),
  groupBy: z.enum(ALERT_GROUPS).nullable().default(null),
  group: z.string().trim().min(1).max(512).nullable().default(null).meta({
    description: "the one group to watch (a page, selector, error group or endpoint, as the " +
      "insights name it); null: every group of `groupBy`",
  }),
  savedSearchId: z.string().min(1).max(100).optional(),
  ...ruleFields,
});
export type CreateAlertRuleInput = z.output<typeof createAlertRuleBody>;

export const updateAlertRuleBody = z.strictObject({
  name: ruleFields.name.optional(),
  threshold: ruleFields.threshold.optional(),
  windowMinutes: ruleFields.windowMinutes.optional(),
  cooldownMinutes: ruleFields.cooldownMinutes.optional(),
  deliver: deliver.optional(),
});
export type UpdateAlertRuleInput = z.output<typeof updateAlertRuleBody>;

const iso = z.iso.datetime();

export const alertRule = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  signal: z.enum(ALERT_SIGNALS),
  groupBy: z.enum(ALERT_GROUPS).nullable(),
  group: z.string().nullable(),
  savedSearchId: z.string().nullable(),
  threshold: z.number().int(),
  windowMinutes: z.number().int(),
  cooldownMinutes: z.number().int(),
  deliver: deliver,
  hasSecret: z.boolean(),
  lastFiring: z.strictObject({ group: z.string(), count: z.number().int(), firedAt: iso })
    .nullable(),
  createdAt: iso,
});
export type AlertRuleOut = z.output<typeof alertRule>;

export const createdAlertRule = alertRule.extend({
  secret: z.string().nullable().meta({
    description: "the webhook's signing secret, in this answer only; null without a webhook",
  }),
});
export const alertRuleList = z.strictObject({ rules: z.array(alertRule) });
export const rotatedSecret = z.strictObject({ secret: z.string() });

export const alertDelivery = z.strictObject({
  id: z.string(),
  channel: z.enum(["webhook", "slack", "email"]),
  status: z.enum(["pending", "sent", "failed"]),
  attempts: z.number().int(),
  nextAttemptAt: iso,
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: iso,
});
export const alertDeliveryList = z.strictObject({ deliveries: z.array(alertDelivery) });
export type AlertDeliveryOut = z.output<typeof alertDelivery>;

/** What a webhook receives (and what Slack and email say in words). */
export interface AlertPayload {
  id: string;
  rule: { id: string; name: string };
  projectId: string;
  signal: AlertSignal;
  group: string | null;
  count: number;
  windowStart: string;
  windowEnd: string;
  sessions: { id: string; url: string }[];
  dashboardUrl: string;
  test?: true;
}

export const alertsRunResult = z.strictObject({
  rules: z.number().int().meta({ description: "rules evaluated by this run" }),
  firings: z.number().int(),
  sent: z.number().int(),
  retried: z.number().int(),
  failed: z.number().int(),
});

const blank = (
  text: unknown,
) => (typeof text === "string" && text.trim() === "" ? undefined : text);
const formNumber = z.preprocess(
  (v) => (blank(v) === undefined ? undefined : Number(v)),
  z.number(),
);

/** The Alerts page's form (text fields): the same rule as `createAlertRuleBody`. */
export const alertRuleForm = z.object({
  name: z.string(),
  signal: z.string().default(""),
  groupBy: z.string().optional(),
  group: z.preprocess(blank, z.string().optional()),
  savedSearchId: z.preprocess(blank, z.string().optional()),
  threshold: formNumber,
  windowMinutes: formNumber,
  cooldownMinutes: formNumber,
  webhook: z.preprocess(blank, z.string().optional()),
  slack: z.preprocess(blank, z.string().optional()),
  email: z.preprocess(blank, z.string().optional()),
}).transform((form) => ({
  name: form.name,
  signal: form.signal,
  groupBy: form.groupBy ? form.groupBy : null,
  group: form.group ?? null,
  savedSearchId: form.savedSearchId,
  threshold: form.threshold,
  windowMinutes: form.windowMinutes,
  cooldownMinutes: form.cooldownMinutes,
  deliver: {
    webhook: form.webhook,
    slack: form.slack,
    email: form.email?.split(/[\s,]+/).filter(Boolean),
  },
}));
