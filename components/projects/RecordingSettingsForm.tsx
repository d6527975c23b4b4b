// A project's recording settings (docs/decisions.md "Capture control"): a form for ADMIN and
// OWNER, the same fields read-only for a VIEWER. The units are the ones people type: a
// percentage, seconds, one path glob per line.
import type { RecordingSettingsView } from "@/core/projects/schema.ts";
import {
  MAX_BUFFER_MS,
  MAX_MIN_DURATION_MS,
  MAX_URL_RULES,
  MIN_BUFFER_MS,
  RECORDING_TRIGGERS,
  type RecordingTrigger,
} from "@/core/projects/recording_limits.ts";

export const TRIGGER_LABELS: Record<RecordingTrigger, string> = {
  error: "An error",
  rage_click: "A rage click",
  dead_click: "A dead click",
};

interface Props {
  recording: RecordingSettingsView;
  editable: boolean;
}

export function RecordingSettingsForm({ recording: r, editable }: Props) {
  const globs = (list: string[]) => list.join("\n");
  return (
    <form method="post" class="stack">
      <fieldset class="stack plain-fieldset" disabled={!editable}>
        <div class="row">
          <label class="field">
            <span>Sessions recorded from their start (%)</span>
            <input
              name="samplePercent"
              type="number"
              min={0}
              max={100}
              step="any"
              value={+(r.sampleRate * 100).toFixed(4)}
              required
            />
          </label>
          <label class="field">
            <span>Minimum visit (seconds)</span>
            <input
              name="minDurationSeconds"
              type="number"
              min={0}
              max={MAX_MIN_DURATION_MS / 1000}
              step="any"
              value={r.minDurationMs / 1000}
              required
            />
          </label>
        </div>
        <p class="muted small">
          Sampling is decided by the session, so every page of one visit agrees. A visit shorter
          than the minimum sends nothing; a longer one is stored from its start.
        </p>
        <SampleWarning recording={r} />
        <div class="row">
          <label class="field field-grow">
            <span>Never record pages</span>
            <textarea name="urlBlock" rows={4} placeholder="/admin/**">
              {globs(r.urlBlock)}
            </textarea>
          </label>
          <label class="field field-grow">
            <span>Record only pages (empty: all)</span>
            <textarea name="urlAllow" rows={4} placeholder="/shop/**">{globs(r.urlAllow)}</textarea>
          </label>
        </div>
        <p class="muted small">
          One path per line, at most {MAX_URL_RULES}: <code>*</code> stays within a segment,{" "}
          <code>**</code>{" "}
          spans segments. A blocked page records nothing, and the replay shows where recording
          paused.
        </p>
        <fieldset class="field">
          <legend>Record a session left out when it meets</legend>
          <div class="checks">
            {RECORDING_TRIGGERS.map((t) => (
              <label key={t}>
                <input type="checkbox" name={`trigger_${t}`} checked={r.triggers.includes(t)} />
                {TRIGGER_LABELS[t]}
              </label>
            ))}
          </div>
        </fieldset>
        <div class="row">
          <label class="field">
            <span>
              With the time before it (seconds, {MIN_BUFFER_MS / 1000} to {MAX_BUFFER_MS / 1000})
            </span>
            <input
              name="bufferSeconds"
              type="number"
              min={MIN_BUFFER_MS / 1000}
              max={MAX_BUFFER_MS / 1000}
              step="any"
              value={r.bufferMs / 1000}
              required
            />
          </label>
        </div>
        <p class="muted small">
          A triggered recording starts at least 30 s before its trigger, on whichever page of the
          visit that was, and at most this plus 30 s before it (or where the visit began), and goes
          on to the session's end. Until a trigger nothing is sent: the visitor's browser keeps that
          stretch of the visit, in memory (at most 8 MiB and 10,000 events) and, between the visit's
          pages of this project, in its IndexedDB (at most 4 MiB per page); past those, the oldest
          part goes first, so a busy page can keep less.
        </p>
        {editable && (
          <p>
            <button type="submit" name="intent" value="save-recording">Save settings</button>
          </p>
        )}
      </fieldset>
      {!editable && <p class="muted">Only admins and owners can change these settings.</p>}
    </form>
  );
}

/** What a 0 % rate records: only what a trigger keeps, and nothing at all without one. */
function SampleWarning({ recording: r }: { recording: RecordingSettingsView }) {
  if (r.sampleRate > 0) return null;
  return (
    <p class="notice notice-warn" role="note" data-testid="sample-warning">
      {r.triggers.length === 0
        ? "At 0 % and with no trigger chosen below, nothing will be recorded."
        : "At 0 %, only sessions that meet a trigger below are recorded."}
    </p>
  );
}
