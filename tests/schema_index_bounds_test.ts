// No index can hold unbounded data (migrations 0019, 0026, 0029): a B-tree row past ~2.7 KB, or a
// GIN entry past about as much, fails its insert with SQLSTATE 54000, and ingest's batch with it.
// Every index's key and INCLUDE columns, expressions too, are read from the catalog after all
// migrations, as the type the index stores (a GIN index stores elements: a text[]'s are text, a
// trigram opclass's integers). A type without a bound (text, varchar without a length, bytea,
// jsonb, arrays) passes only when listed in BOUNDED with what bounds it, or when a foreign key ties
// the column to one listed. A partition's indexes are its parent's, read once on the parent.
import assert from "node:assert/strict";
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { createTestDb } from "./helpers/db.ts";

const each = (reason: string, keys: string[]) => Object.fromEntries(keys.map((k) => [k, reason]));

/** `table.column` (or `table.expression`) → what keeps its values small. */
const BOUNDED: Record<string, string> = {
  ...each("an id the service makes: cuid2's createId() or core/ids.ts newRowId(), 25 characters", [
    "accounts.id",
    "alert_firings.id",
    "alert_rules.id",
    "invites.id",
    "memberships.id",
    "organizations.id",
    "otp_codes.id",
    "projects.id",
    "saved_searches.id",
    "session_comments.id",
    "session_shares.id",
    "sessions.id",
    "tracked_users.id",
    "users.id",
  ]),
  ...each("a copy of a service id where the table has no foreign key (partitioned, or a rollup)", [
    "alert_signal_minutes.project_id",
    "alert_signal_minutes.session_id",
    "alert_signal_last.project_id",
    "alert_signal_last.session_id",
    "alert_signal_last_counts.project_id",
    "alert_signal_last_hours.project_id",
    "event_batches.project_id",
    "heatmap_queue.project_id",
    "markers.session_id",
    "page_sequences.project_id",
    "session_rollups.organization_id",
    "session_rollups.project_id",
    "signal_rollups.organization_id",
    "signal_rollups.project_id",
    "signal_users.organization_id",
    "signal_users.project_id",
    "signal_users.tracked_user_id",
    "tracked_user_pending.tracked_user_id",
    "tracked_user_rollups.organization_id",
    "tracked_user_rollups.project_id",
  ]),
  ...each("a digest or random value the service makes: SHA-256 (hex or bytes) or a random UUID", [
    "alert_deliveries.id", // a random UUID (core/alerts/evaluate.ts), X-Playhead-Delivery
    "event_batches.digest",
    "oauth_states.state_hash",
    "session_shares.token_hash",
    "revoked_tokens.token_id", // the jti of a token the service signed (core/auth/token.ts)
    "session_data_keys.kek_id", // 16 hex characters of a store key's SHA-256 (config/)
    "webauthn_challenges.id", // 32 random bytes in base64url (core/auth/passkeys/challenge.ts)
  ]),
  ...each("one of a CHECK constraint's values", [
    "alert_signal_minutes.dimension",
    "alert_signal_minutes.kind",
    "alert_signal_last.dimension",
    "alert_signal_last.kind",
    "alert_signal_last_counts.dimension",
    "alert_signal_last_counts.kind",
    "alert_signal_last_hours.dimension",
    "alert_signal_last_hours.kind",
    "heatmap_clicks.band",
    "heatmap_views.band",
    "projects.key",
    "sessions.recording_reason",
    "signal_rollups.kind",
    "tracked_user_rollups.kind",
  ]),
  ...each(
    "an email address: at most 254 characters (core/auth/schema.ts, organizations/schema.ts)",
    [
      "invites.lower(email)",
      "otp_codes.lower(email)",
      "otp_send_counters.email",
      "users.lower(email)",
    ],
  ),
  ...each("a session id: a UUID (core/ingest/schema.ts)", [
    "event_batches.session_external_id",
    "heatmap_queue.session_external_id",
    "page_sequences.session_external_id",
    "sessions.external_id",
  ]),
  ...each(
    "a page's path (a URL's pathname, ASCII, cut to 512) or a selector (cut to 256): CHECK octet_length <= 1024 (migration 0040)",
    [
      "heatmap_clicks.path",
      "heatmap_clicks.selector",
      "heatmap_views.path",
    ],
  ),
  ...each("the object store's key: the configured prefix, a day, a time and a UUID", [
    "event_batches.object_key",
    "stored_objects.key",
  ]),
  "accounts.provider": "a provider's id from the configuration (`github`, `oidc`)",
  "accounts.provider_account_id": "GitHub's numeric id, or OIDC's `sub`: at most 255 ASCII",
  "authenticators.credential_id":
    "at most 1,400 base64url characters (core/auth/passkeys/schema.ts)",
  "markers.kind": "cut to 64 characters by ingest (core/ingest/markers.ts KIND_CHARS)",
  "rate_limit_counters.bucket":
    "a fixed name, or one with an address group (http/client_address.ts)",
  "sessions.browser":
    "cut to 64 characters by ingest (core/ingest/user_agent.ts CLIENT_NAME_CHARS)",
  "sessions.os": "cut to 64 characters by ingest (core/ingest/user_agent.ts CLIENT_NAME_CHARS)",
  "sessions.device": "desktop, mobile or tablet (core/ingest/user_agent.ts)",
  // GIN stores each element: `lcp:poor`, a vital's name and a rating (core/ingest/markers.ts).
  "sessions.web_vitals": "ingest's `name:rating` pairs of the known vitals (vitalRatings)",
  "signal_users.kind": "error, rage_click or dead_click: what the rollup trigger writes (0017)",
  ...each(
    "signal_key(): a fingerprint of at most 500 characters (0026), a selector cut to 256 and a page " +
      "to 512 (core/ingest/limits.ts, signal_page in 0019)",
    ["signal_rollups.key", "signal_users.key"],
  ),
  ...each("cut to 512 characters by its trigger, or '' (0039)", [
    "alert_signal_minutes.group_key",
    "alert_signal_last.group_key",
    "alert_signal_last_counts.group_key",
    "alert_signal_last_hours.group_key",
  ]),
  "tracked_users.external_id": "a user id: at most 256 characters (core/ingest/schema.ts)",
};

interface IndexColumn {
  index: string;
  table: string;
  /** The column's name, or the expression's text. */
  source: string;
  included: boolean;
  type: string;
  /** The type itself bounds the value: fixed length, or a length in the type (varchar(255)). */
  sized: boolean;
}

async function indexColumns(db: Kysely<Database>): Promise<IndexColumn[]> {
  const { rows } = await sql<IndexColumn>`
    SELECT ic.relname AS index, t.relname AS table,
      pg_get_indexdef(i.indexrelid, a.attnum, true) AS source,
      a.attnum > i.indnkeyatts AS included, format_type(a.atttypid, a.atttypmod) AS type,
      ty.typlen > 0 OR ty.typname IN ('inet', 'cidr')
        OR (a.atttypmod >= 0 AND ty.typname IN ('varchar', 'bpchar', 'varbit', 'numeric')) AS sized
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_attribute a ON a.attrelid = i.indexrelid AND a.attnum > 0
    JOIN pg_type ty ON ty.oid = a.atttypid
    WHERE t.relnamespace = 'public'::regnamespace AND NOT t.relispartition
    ORDER BY ic.relname, a.attnum
  `.execute(db);
  return rows;
}

/** `table.column` → the `table.column` a single-column foreign key references. */
async function foreignKeys(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ from: string; to: string }>`
    SELECT t.relname || '.' || a.attname AS from, rt.relname || '.' || ra.attname AS to
    FROM pg_constraint k
    JOIN pg_class t ON t.oid = k.conrelid
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
    JOIN pg_class rt ON rt.oid = k.confrelid
    JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = k.confkey[1]
    WHERE k.contype = 'f' AND cardinality(k.conkey) = 1
      AND t.relnamespace = 'public'::regnamespace AND NOT t.relispartition
  `.execute(db);
  return new Map(rows.map((r) => [r.from, r.to]));
}

/** Every index column that can hold unbounded data, as `index: KEY|INCLUDE table.source type`. */
async function unboundedIndexColumns(db: Kysely<Database>): Promise<string[]> {
  const references = await foreignKeys(db);
  const bounded = (key: string, seen = new Set<string>()): boolean => {
    if (key in BOUNDED) return true;
    const to = references.get(key);
    return to !== undefined && !seen.has(to) && bounded(to, seen.add(key));
  };
  return (await indexColumns(db))
    .filter((c) => !c.sized && !bounded(`${c.table}.${c.source}`))
    .map((c) => `${c.index}: ${c.included ? "INCLUDE" : "KEY"} ${c.table}.${c.source} ${c.type}`);
}

Deno.test("schema: no index's key or INCLUDE column can hold unbounded data", async () => {
  await using db = await createTestDb();
  assert.deepEqual(await unboundedIndexColumns(db.kysely), []);
});

Deno.test("schema: an index carrying a payload, a text expression or a text[]'s elements is flagged", async () => {
  await using db = await createTestDb();
  const created: string[] = [];
  // Dropped at the end: an emptied PGlite is handed to the module's next test with its indexes.
  await using _drop = {
    [Symbol.asyncDispose]: async () => {
      for (const name of created) await sql.raw(`DROP INDEX ${name}`).execute(db.kysely);
    },
  };
  const create = async (name: string, definition: string) => {
    await sql.raw(`CREATE INDEX ${name} ON ${definition}`).execute(db.kysely);
    created.push(name);
  };
  await create("markers_payload_idx", `markers (session_created_at) INCLUDE (data)`);
  await create("markers_url_idx", `markers ((data ->> 'url'))`);
  await create("sessions_url_idx", `sessions (organization_id, url)`);
  await create("sessions_pages_idx", `sessions USING gin (url_pathnames)`);
  // Trigrams are bounded whatever the text: not flagged.
  await create("sessions_url_trgm_idx", `sessions USING gin (url gin_trgm_ops)`);
  assert.deepEqual(await unboundedIndexColumns(db.kysely), [
    "markers_payload_idx: INCLUDE markers.data jsonb",
    "markers_url_idx: KEY markers.(data ->> 'url'::text) text",
    "sessions_pages_idx: KEY sessions.url_pathnames text",
    "sessions_url_idx: KEY sessions.url text",
  ]);
});
