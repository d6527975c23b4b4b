// What /metrics reads from the rest of the app at each scrape: the database's connection shares,
// the offload backlog, active sessions, the store's sealed batches that did not open. Registered
// once per app (core/deps.ts).
import type { Db } from "@/db/client.ts";
import { activeSessionCount, offloadBacklog } from "@/db/queries/service/metrics.ts";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import type { Metrics, Reading } from "./metrics.ts";
import type { ObjectStore } from "@/db/object_store.ts";

/** Sessions longer than this are not counted as active (the count stays one index range). */
const ACTIVE_CREATED_WITHIN_MS = 24 * 60 * 60_000;

export function watchApp(metrics: Metrics, db: Db, options: { store: boolean }) {
  const shares = (field: "waits" | "busy"): Reading =>
    Object.entries(db.gate.usage()).map(([name, usage]) => [{ class: name }, usage[field]]);
  metrics.counted(
    "playhead_db_share_waits_total",
    "Queries that found every database connection of their request class busy and waited.",
    ["class"],
    () => shares("waits"),
  );
  metrics.counted(
    "playhead_db_share_busy_total",
    "Queries that waited past the share's wait for a connection: their request answered 503.",
    ["class"],
    () => shares("busy"),
  );
  metrics.gauge(
    "playhead_active_sessions",
    `Sessions with an event in the last ${LIVE_WITHIN_MS / 1000} s (those created in the last ` +
      "24 h).",
    [],
    async () => {
      const now = Date.now();
      const count = await activeSessionCount(
        db.kysely,
        new Date(now - LIVE_WITHIN_MS),
        new Date(now - ACTIVE_CREATED_WITHIN_MS),
      );
      return [[{}, count]];
    },
  );
  if (!options.store) return;
  // Each gauge asks on its own (prom-client collects them side by side): two cheap queries.
  const read = () => offloadBacklog(db.kysely);
  metrics.gauge(
    "playhead_offload_staged_batches",
    "Batches stored in PostgreSQL and waiting to be offloaded to the object store.",
    [],
    async () => [[{}, (await read()).batches]],
  );
  metrics.gauge(
    "playhead_offload_oldest_staged_age_seconds",
    "Age of the oldest batch waiting to be offloaded (0 when none waits).",
    [],
    async () => {
      const { oldest } = await read();
      return [[{}, oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0]];
    },
  );
}

/** The sealed batches' troubles the store counts (core/storage/); answers the store. */
export function watchStore(metrics: Metrics, store: ObjectStore): ObjectStore {
  const { seals } = store;
  metrics.counted(
    "playhead_store_unreadable_batches_total",
    "Sealed batches read back that did not open, by reason (decrypt: moved, altered or a wrong " +
      "key; no_key: its session's key destroyed; unwrap: no store key unwraps its key).",
    ["reason"],
    () => Object.entries(seals.unreadable).map(([reason, n]) => [{ reason }, n]),
  );
  metrics.counted(
    "playhead_store_upload_checks_total",
    "Uploads read back and opened before their commit (one in EVENTS_STORE_CHECK_EVERY), by " +
      "outcome; a failed one is not committed.",
    ["outcome"],
    () => Object.entries(seals.checks).map(([outcome, n]) => [{ outcome }, n]),
  );
  return store;
}
