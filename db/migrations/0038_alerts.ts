// Alert rules, their firings and the outbox of their deliveries (docs/decisions.md "Alerts"):
// - alert_rules: a project's rule (signal, group, threshold, window, cooldown, where to deliver);
//   the webhook's signing secret sealed with AES-GCM under a key derived from AUTH_SECRET (it must
//   be read to sign, so it cannot be a hash); last_evaluated_minute is the per-minute claim: an
//   instance evaluates a rule only if its UPDATE moved the minute forward.
// - alert_firings: a group's firing (its cooldown starts at fired_at).
// - alert_deliveries: the outbox, written in the firing's transaction; a sender claims due rows.
// - markers_alert_signals_idx: the signal markers of a recent window by kind and time, so a rule's
//   count reads only the window's markers of its kind (no events, no scan of older markers).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const UP = [
  `CREATE TABLE alert_rules (
     id text PRIMARY KEY,
     organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
     project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     name text NOT NULL CHECK (length(name) <= 200),
     signal text NOT NULL,
     group_by text,
     saved_search_id text,
     threshold integer NOT NULL,
     window_minutes integer NOT NULL,
     cooldown_minutes integer NOT NULL,
     deliver jsonb NOT NULL,
     secret_sealed text,
     last_evaluated_minute bigint NOT NULL DEFAULT 0,
     created_by_id text,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX alert_rules_project_idx ON alert_rules (project_id, created_at, id)`,
  `CREATE INDEX alert_rules_org_idx ON alert_rules (organization_id, created_at, id)`,
  `CREATE TABLE alert_firings (
     id text PRIMARY KEY,
     rule_id text NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
     group_key text NOT NULL,
     count integer NOT NULL,
     fired_at timestamptz NOT NULL
   )`,
  `CREATE INDEX alert_firings_rule_idx ON alert_firings (rule_id, fired_at DESC)`,
  `CREATE TABLE alert_deliveries (
     id text PRIMARY KEY,
     rule_id text NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
     channel text NOT NULL CHECK (channel IN ('webhook', 'slack', 'email')),
     payload jsonb NOT NULL,
     status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
     attempts integer NOT NULL DEFAULT 0,
     next_attempt_at timestamptz NOT NULL,
     last_status integer,
     last_error text,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   )`,
  `CREATE INDEX alert_deliveries_due_idx ON alert_deliveries (next_attempt_at)
     WHERE status = 'pending'`,
  `CREATE INDEX alert_deliveries_rule_idx ON alert_deliveries (rule_id, created_at DESC)`,
  `CREATE INDEX markers_alert_signals_idx ON markers (kind, ts) INCLUDE (session_id)
     WHERE kind IN ('error', 'rage_click', 'dead_click', 'network_error')`,
];

const DOWN = [
  `DROP INDEX markers_alert_signals_idx`,
  `DROP TABLE alert_deliveries, alert_firings, alert_rules`,
];
