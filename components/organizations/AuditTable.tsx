// The audit log as a table (the Settings page /settings/organization/audit): when; what, to what,
// with the details in a line; who, from which address; a filter by action and the next page link.
import type { AuditEntry } from "@/core/audit/schema.ts";
import { AUDIT_ACTIONS, type AuditAction } from "@/core/audit/schema.ts";
import { auditHref } from "@/page_state/audit.ts";
import { formatExact } from "@/utils/format.ts";

interface Props {
  entries: AuditEntry[];
  action: AuditAction | undefined;
  nextCursor: string | null;
  /** This is a later page (a link back to the first one is shown). */
  paged: boolean;
}

/** The details as `key: value` pairs in one line, long values cut. */
export function detailsSummary(details: Record<string, unknown>): string {
  const text = (value: unknown): string => {
    const plain = typeof value === "string" ? value : JSON.stringify(value);
    return plain.length > 60 ? `${plain.slice(0, 59)}…` : plain;
  };
  return Object.entries(details).map(([key, value]) => `${key}: ${text(value)}`).join(", ");
}

export function AuditTable({ entries, action, nextCursor, paged }: Props) {
  return (
    <section class="card card-flush" aria-label="Audit log">
      <form method="get" class="filters">
        <div class="field">
          <label for="audit-action">Action</label>
          <select id="audit-action" name="action">
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => <option key={a} value={a} selected={a === action}>{a}
            </option>)}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      {entries.length === 0
        ? <p class="card-title muted">No audited changes{action ? ` of ${action}` : ""} yet.</p>
        : (
          <div class="table-scroll">
            <table class="table" data-testid="audit-table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Action</th>
                  <th scope="col">Actor</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id} data-action={e.action}>
                    <td class="num" data-cell="time">{formatExact(e.createdAt, "UTC")}</td>
                    <td>
                      <span class="badge">{e.action}</span>
                      <div class="truncate muted">
                        <small data-cell="target">{e.targetType} {e.targetId ?? "—"}</small>
                      </div>
                      <div
                        class="truncate muted"
                        data-cell="details"
                        title={detailsSummary(e.details)}
                      >
                        <small>{detailsSummary(e.details) || "—"}</small>
                      </div>
                    </td>
                    <td>
                      <div class="truncate" data-cell="actor" title={e.actor.email}>
                        {e.actor.email}
                      </div>
                      <small class="muted" data-cell="address">{e.clientAddress ?? "—"}</small>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <div class="table-foot">
        <span>{paged ? <a href={auditHref({ action })}>Newest entries</a> : "Newest first"}</span>
        {nextCursor && (
          <a class="button" href={auditHref({ action, cursor: nextCursor })} rel="next">
            Older entries
          </a>
        )}
      </div>
    </section>
  );
}
