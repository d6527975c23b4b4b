// A project's retention (docs/decisions.md "Retention per project"): days kept, 1–365, a form for
// ADMIN and OWNER, read-only for a VIEWER, with what the next daily cleanup deletes under it.
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from "@/core/projects/schema.ts";

interface Props {
  retentionDays: number;
  /** The project's unpinned sessions already older than `retentionDays`. */
  sessionsToDelete: number;
  editable: boolean;
}

const sessions = (n: number) => `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"}`;

export function RetentionForm({ retentionDays, sessionsToDelete, editable }: Props) {
  return (
    <form method="post" class="stack">
      <fieldset class="stack plain-fieldset" disabled={!editable}>
        <div class="row">
          <label class="field">
            <span>Keep sessions for (days, {MIN_RETENTION_DAYS}–{MAX_RETENTION_DAYS})</span>
            <input
              name="retentionDays"
              type="number"
              min={MIN_RETENTION_DAYS}
              max={MAX_RETENTION_DAYS}
              step={1}
              value={retentionDays}
              required
            />
          </label>
        </div>
        <p class="muted small" data-testid="retention-effect">
          {sessionsToDelete > 0
            ? `The next daily cleanup (03:30 UTC) deletes ${sessions(sessionsToDelete)} ` +
              `older than ${retentionDays} days, with their recordings.`
            : `No session is older than ${retentionDays} days: the next daily cleanup deletes none.`}
          {" "}
          Pinned sessions are kept whatever their age.
        </p>
        {editable && (
          <p>
            <button type="submit" name="intent" value="save-retention">Save retention</button>
          </p>
        )}
      </fieldset>
    </form>
  );
}
