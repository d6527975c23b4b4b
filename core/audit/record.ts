// Writes audit rows (docs/decisions.md "Audit log"): `recordAudit` inside the caller's transaction,
// so a change and its row commit or roll back together; `recordReplayView` once per viewer, session
// and hour when the organization audits replay views. The client address is a plain value the edge
// put on the viewer (http/client_address.ts), never read here from a request.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { auditViewsOn, insertAuditRow, insertViewRow } from "@/db/queries/audit/audit.ts";
import { newRowId } from "@/core/ids.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { AuditAction, AuditTargetType } from "./schema.ts";

/** Who acted, and from where: a viewer as the edge resolved it. */
export type AuditActor = Pick<Viewer, "userId" | "email" | "clientAddress">;

export interface AuditChange<A extends AuditAction = AuditAction> {
  organizationId: string;
  action: A;
  /** The id of what was changed (a member's, a project's, a session's …); null for none. */
  targetId: string | null;
  /** What changed: counts, the settings given, a role before and after. Never a secret. */
  details?: Record<string, unknown>;
}

const HOUR_MS = 3_600_000;
/** The stored address is cut to the column's 64 characters (an IPv6 address with a zone). */
const ADDRESS_CHARS = 64;

/** Writes one audit row with `db`: pass the transaction the change runs in. */
export async function recordAudit(
  db: Kysely<Database>,
  actor: AuditActor,
  change: AuditChange,
): Promise<void> {
  await insertAuditRow(db, row(actor, change, new Date()));
}

/**
 * A `session.view` row when the organization audits replay views (its "audit replay views"
 * setting), at most one per viewer, session and UTC hour; true when one was written.
 */
export async function recordReplayView(
  db: Kysely<Database>,
  actor: AuditActor,
  input: { organizationId: string; sessionId: string },
): Promise<boolean> {
  if (!await auditViewsOn(db, input.organizationId)) return false;
  const now = new Date();
  const change = { organizationId: input.organizationId, action: "session.view" as const };
  return await insertViewRow(db, {
    ...row(actor, { ...change, targetId: input.sessionId }, now),
    view_hour: new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS),
  });
}

function row(actor: AuditActor, change: AuditChange, now: Date) {
  return {
    id: newRowId(),
    organization_id: change.organizationId,
    action: change.action,
    actor_id: actor.userId,
    actor_email: actor.email,
    target_type: targetTypeOf(change.action),
    target_id: change.targetId,
    details: JSON.stringify(change.details ?? {}),
    client_address: actor.clientAddress?.slice(0, ADDRESS_CHARS) ?? null,
    created_at: now,
  };
}

export function targetTypeOf(action: AuditAction): AuditTargetType {
  return action.slice(0, action.indexOf(".")) as AuditTargetType;
}
