// The audit log of one organization (docs/decisions.md "Audit log"), for its ADMINs and OWNERs: a
// VIEWER gets 403, someone outside it 404. Newest first, in keyset pages of AUDIT_PAGE_SIZE rows.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { decodeKeyedCursor, encodeCursor } from "@/core/cursor.ts";
import { roleIn } from "@/core/permissions.ts";
import { auditRows } from "@/db/queries/audit/audit.ts";
import { AUDIT_PAGE_SIZE, type AuditAction, type AuditPage, type AuditQuery } from "./schema.ts";

const ORDER = "time:desc";

export async function auditLog(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  input: AuditQuery & { organizationId: string },
): Promise<AuditPage> {
  await roleIn(deps, viewer, input.organizationId, "ADMIN");
  const after = input.cursor ? decodeKeyedCursor(input.cursor, ORDER) : undefined;
  const rows = await auditRows(deps.db.kysely, {
    organizationId: input.organizationId,
    action: input.action,
    after: after && { createdAt: new Date(after.key), id: after.id },
    limit: AUDIT_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({
      id: row.id,
      action: row.action as AuditAction,
      actor: { id: row.actor_id, email: row.actor_email },
      targetType: row.target_type,
      targetId: row.target_id,
      details: isObject(row.details) ? row.details : {},
      clientAddress: row.client_address,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    nextCursor: rows.length > AUDIT_PAGE_SIZE && last
      ? encodeCursor({ order: ORDER, key: new Date(last.created_at).getTime(), id: last.id })
      : null,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
