// Wire schemas of invites (DECISIONS "Organisations, members, invites"): requests as
// api/invites.ts parses them, and the answers of core/invites.ts and core/user_invites.ts
// (strict, so an undocumented field fails tests/openapi_test.ts).
import { z } from "zod";

const inviteRole = z.enum(["ADMIN", "VIEWER"]);
const status = z.enum(["PENDING", "EXPIRED", "ACCEPTED", "DECLINED"]);

export const createInviteBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254)),
  role: inviteRole,
});
export const refreshInviteBody = z.object({ role: inviteRole.optional() });

const invitedBy = z.strictObject({ name: z.string().nullable(), email: z.string() }).nullable();

export const invite = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: inviteRole,
  status,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  invitedBy,
});

export const sentInvite = z.strictObject({
  ...invite.shape,
  emailSent: z.boolean().meta({ description: "whether the invite email went out" }),
});

export const userInvite = z.strictObject({
  id: z.string(),
  role: inviteRole,
  status,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  organization: z.strictObject({ id: z.string(), name: z.string() }),
  invitedBy,
});
