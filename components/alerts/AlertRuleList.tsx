// The Alerts page's rules (docs/decisions.md "Alerts"): each with its last firing and its recent
// deliveries' status, and for ADMIN+ its actions (change, send a test, rotate the secret, delete).
import type { AlertDeliveryOut, AlertRuleOut } from "@/core/alerts/schema.ts";

interface Props {
  rules: AlertRuleOut[];
  deliveries: Record<string, AlertDeliveryOut[]>;
  editable: boolean;
}

const when = (iso: string) => iso.slice(0, 16).replace("T", " ") + " UTC";

function targets(rule: AlertRuleOut): string {
  const parts = [];
  if (rule.deliver.webhook) parts.push("webhook");
  if (rule.deliver.slack) parts.push("Slack");
  if (rule.deliver.email) parts.push(`${rule.deliver.email.length} email`);
  return parts.join(", ");
}

function recent(deliveries: AlertDeliveryOut[]): string {
  if (!deliveries.length) return "none yet";
  const counts = { sent: 0, pending: 0, failed: 0 };
  for (const d of deliveries.slice(0, 20)) counts[d.status]++;
  return Object.entries(counts).filter(([, n]) => n > 0).map(([s, n]) => `${n} ${s}`).join(", ");
}

export function AlertRuleList({ rules, deliveries, editable }: Props) {
  if (!rules.length) return <p class="muted">No alert rules yet.</p>;
  return (
    <table class="table" data-testid="alert-rules">
      <thead>
        <tr>
          <th>Rule</th>
          <th>Fires when</th>
          <th>Delivers to</th>
          <th>Last firing</th>
          <th>Recent deliveries</th>
          {editable && <th />}
        </tr>
      </thead>
      <tbody>
        {rules.map((rule) => (
          <tr>
            <td>
              <bdi>{rule.name}</bdi>
            </td>
            <td>
              ≥ {rule.threshold} sessions with {rule.signal.replace("_", " ")}
              {rule.groupBy && !rule.group ? ` per ${rule.groupBy.replace("_", " ")}` : ""}
              {rule.group
                ? (
                  <>
                    {" "}on <bdi>{rule.group}</bdi>
                  </>
                )
                : null} in {rule.windowMinutes} min; silent {rule.cooldownMinutes} min after
            </td>
            <td>{targets(rule)}</td>
            <td>
              {rule.lastFiring
                ? (
                  <>
                    {when(rule.lastFiring.firedAt)} · {rule.lastFiring.count} sessions
                    {rule.lastFiring.group
                      ? (
                        <>
                          on <bdi>{rule.lastFiring.group}</bdi>
                        </>
                      )
                      : null}
                  </>
                )
                : "never"}
            </td>
            <td>{recent(deliveries[rule.id] ?? [])}</td>
            {editable && (
              <td class="actions">
                <form method="post" class="row">
                  <input type="hidden" name="id" value={rule.id} />
                  <a class="button small" href={`?edit=${encodeURIComponent(rule.id)}`}>Change</a>
                  <button type="submit" name="intent" value="test" class="small secondary">
                    Test
                  </button>
                  {rule.deliver.webhook && (
                    <button type="submit" name="intent" value="rotate" class="small secondary">
                      New secret
                    </button>
                  )}
                  <button type="submit" name="intent" value="delete" class="small danger">
                    Delete
                  </button>
                </form>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
