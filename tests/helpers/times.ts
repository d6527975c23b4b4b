// Recorded times for fixtures: ingest keeps times from 30 days before the server's clock to 1 day
// after (core/ingest/recorded_time.ts), so a fixture is stamped two days ago, at its time of day.
const DAY_MS = 86_400_000;

/** `at`'s UTC time of day, two days before today: a fixture keeps its hour and stays recent. */
export function recent(at: number): number {
  return (Math.floor(Date.now() / DAY_MS) - 2) * DAY_MS + (at % DAY_MS);
}

/** The usual start of a fixture's recording. */
export const T0: number = recent(1_760_000_000_000);
