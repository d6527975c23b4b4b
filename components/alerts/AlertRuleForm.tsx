// The Alerts page's form (docs/decisions.md "Alerts"): a new rule, filled from the page's query
// (the insights' "Alert me" links), or a rule to change.
import {
  ALERT_GROUPS,
  ALERT_SIGNALS,
  type AlertRuleOut,
  MAX_EMAILS,
} from "@/core/alerts/schema.ts";

export interface RuleDraft {
  name?: string;
  signal?: string;
  groupBy?: string | null;
  /** The one group to watch (an insights row's page, element, error group or endpoint). */
  group?: string | null;
  threshold?: number;
  windowMinutes?: number;
  cooldownMinutes?: number;
}

const SIGNAL_LABELS: Record<string, string> = {
  rage_click: "Rage click",
  dead_click: "Dead click",
  error: "Error",
  network_error: "Failed request",
  saved_search: "Saved search",
};

interface Props {
  /** The rule being changed; absent for a new one. */
  rule?: AlertRuleOut;
  draft: RuleDraft;
  editable: boolean;
}

export function AlertRuleForm({ rule, draft, editable }: Props) {
  const value = rule ?? draft;
  return (
    <form method="post" class="stack" data-testid="alert-rule-form">
      <fieldset class="stack plain-fieldset" disabled={!editable}>
        {rule && <input type="hidden" name="id" value={rule.id} />}
        <div class="row">
          <label class="field">
            <span>Name</span>
            <input name="name" value={value.name ?? ""} maxLength={200} required />
          </label>
          <label class="field">
            <span>Signal</span>
            <select name="signal" disabled={!!rule}>
              {ALERT_SIGNALS.map((s) => (
                <option value={s} selected={value.signal === s}>{SIGNAL_LABELS[s]}</option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>Group by</span>
            <select name="groupBy" disabled={!!rule}>
              <option value="" selected={!value.groupBy}>Nothing (the project)</option>
              {ALERT_GROUPS.map((g) => (
                <option value={g} selected={value.groupBy === g}>{g.replace("_", " ")}</option>
              ))}
            </select>
          </label>
          <label class="field">
            <span>Only the group (empty: each group)</span>
            <input name="group" value={value.group ?? ""} maxLength={512} disabled={!!rule} />
          </label>
        </div>
        <div class="row">
          <NumberField
            label="Sessions (1–10,000)"
            name="threshold"
            min={1}
            max={10000}
            value={value.threshold ?? 5}
          />
          <NumberField
            label="Within minutes (5–1,440)"
            name="windowMinutes"
            min={5}
            max={1440}
            value={value.windowMinutes ?? 10}
          />
          <NumberField
            label="Then silent for minutes (0–10,080)"
            name="cooldownMinutes"
            min={0}
            max={10080}
            value={value.cooldownMinutes ?? 60}
          />
        </div>
        <div class="row">
          <label class="field">
            <span>Webhook (https)</span>
            <input name="webhook" type="url" value={rule?.deliver.webhook ?? ""} />
          </label>
          <label class="field">
            <span>Slack incoming webhook</span>
            <input name="slack" type="url" value={rule?.deliver.slack ?? ""} />
          </label>
          <label class="field">
            <span>Email (up to {MAX_EMAILS}, comma separated)</span>
            <input name="email" value={rule?.deliver.email?.join(", ") ?? ""} />
          </label>
        </div>
        {editable && (
          <p>
            <button type="submit" name="intent" value={rule ? "save" : "create"}>
              {rule ? "Save rule" : "Create rule"}
            </button>
          </p>
        )}
      </fieldset>
    </form>
  );
}

/** A whole number between `min` and `max`, with its range in the label. */
function NumberField(
  { label, name, min, max, value }: {
    label: string;
    name: string;
    min: number;
    max: number;
    value: number;
  },
) {
  return (
    <label class="field">
      <span>{label}</span>
      <input name={name} type="number" min={min} max={max} value={value} />
    </label>
  );
}
