// Wire schemas of the audit log (docs/decisions.md "Audit log"): the one list of audited actions,
// a row as the API and the Settings page show it, and the query of a page of rows.
import { z } from "zod";

/** Every audited action, `<target type>.<verb>`; a new one is added here first. */
export const AUDIT_ACTIONS = [
  "member.role_change",
  "member.remove",
  "invite.create",
  "invite.refresh",
  "invite.revoke",
  "organization.update",
  "project.create",
  "project.update",
  "project.delete",
  "project.key_reveal",
  "project.key_rotate",
  "share.create",
  "share.revoke",
  "session.delete",
  "session.export",
  "session.pin",
  "session.unpin",
  "session.view",
  "tracked_user.erase",
  "tracked_user.export",
  "alert_rule.create",
  "alert_rule.update",
  "alert_rule.delete",
  "alert_rule.secret_rotate",
] as const;

export const auditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.output<typeof auditAction>;

/** What an action is done to: the part of its name before the dot. */
export type AuditTargetType = AuditAction extends `${infer T}.${string}` ? T : never;

/** Rows on one page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

export const auditQuery = z.strictObject({
  cursor: z.string().min(1).max(200).optional(),
  action: auditAction.optional().meta({ description: "only rows of this action" }),
});
export type AuditQuery = z.output<typeof auditQuery>;

export const auditEntry = z.strictObject({
  id: z.string(),
  action: auditAction,
  actor: z.strictObject({
    id: z.string().nullable().meta({
      description: "the account's id as it was (kept after its deletion)",
    }),
    email: z.string().meta({ description: "the actor's email when the row was written" }),
  }),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  clientAddress: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.output<typeof auditEntry>;

export const auditPage = z.strictObject({
  entries: z.array(auditEntry),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.output<typeof auditPage>;
