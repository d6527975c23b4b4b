// Row types of alerts (migration 0038): rules, their firings and the outbox of deliveries, part
// of `Database` in db/schema.ts.
import type { ColumnType, Generated } from "kysely";

type Json = ColumnType<unknown, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AlertRuleTable {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  signal: string;
  group_by: string | null;
  /** The one group watched (migration 0039); null: every group of group_by. */
  group_key: ColumnType<string | null, string | null | undefined, string | null>;
  saved_search_id: string | null;
  threshold: number;
  window_minutes: number;
  cooldown_minutes: number;
  /** `{ webhook?, slack?, email? }` as given. */
  deliver: Json;
  /** The webhook's signing secret, sealed (core/alerts/secret.ts); null without a webhook. */
  secret_sealed: string | null;
  /** The last UTC minute (ms / 60,000) an instance claimed the rule's evaluation for. */
  last_evaluated_minute: ColumnType<string, number | undefined, number>;
  created_by_id: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AlertFiringTable {
  id: string;
  rule_id: string;
  group_key: string;
  count: number;
  fired_at: Timestamp;
}

export type DeliveryChannel = "webhook" | "slack" | "email";
export type DeliveryStatus = "pending" | "sent" | "failed";

export interface AlertDeliveryTable {
  /** Sent as X-Playhead-Delivery, for the receiver to drop repeats. */
  id: string;
  rule_id: string;
  channel: DeliveryChannel;
  payload: Json;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The alerts' tables, which `Database` (db/schema.ts) extends. */
export interface AlertTables {
  alert_rules: AlertRuleTable;
  alert_firings: AlertFiringTable;
  alert_deliveries: AlertDeliveryTable;
}
