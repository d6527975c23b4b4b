// The last line of defence against a value too large for PostgreSQL (SQLSTATE 54000, e.g. an
// index row past ~2.7 KB). Ingest bounds what reaches an index (limits.ts) and
// tests/schema_index_bounds_test.ts fails on an index that can hold unbounded data, so this only
// answers a bound that was missed: a 400 naming the body's field, never a 500 that the SDK would
// retry with the same batch until it gives up (docs/decisions.md "Ingest").
import { programLimitExceeded } from "@/db/program_limit.ts";
import { type AppError, validation } from "@/core/errors.ts";
import { log } from "@/log.ts";

/** The body's field each table's rows are made from; a partition (`markers_default`) is its table's. */
const FIELD_OF_TABLE: Record<string, string> = {
  event_batches: "events",
  markers: "events",
  signal_rollups: "events", // keyed by markers (migration 0017)
  signal_users: "events",
  sessions: "metadata",
  tracked_users: "metadata.userIdentity",
};

function fieldOf(table: string | null): string {
  const root = Object.keys(FIELD_OF_TABLE).find((t) => table === t || table?.startsWith(`${t}_`));
  // Most of what a batch writes is taken from its events.
  return root ? FIELD_OF_TABLE[root] : "events";
}

/** The 400 for a write refused as too large, or null for any other error. */
function tooLargeToStore(error: unknown): AppError | null {
  const limit = programLimitExceeded(error);
  if (!limit) return null;
  return validation("a value of the batch is too large to store", [{
    path: fieldOf(limit.table),
    message: "a value taken from it is too large for the database to index",
  }]);
}

/** A write's `.catch`: a refusal as too large becomes its 400, logged; any other error stays. */
export const refuseTooLarge = (context: { requestId?: string }) => (error: unknown): never => {
  const tooLarge = tooLargeToStore(error);
  if (!tooLarge) throw error;
  // A bound ingest should have applied is missing: the batch is refused, and this says where.
  log.error("ingest:batch:too_large", { ...context, error: String(error) });
  throw tooLarge;
};
