// Wire schemas of /api/organizations, its members and invites (docs/decisions.md "Organizations,
// members and invites"): requests as the API and the settings pages parse them, and the answers of
// core/ (strict, so an undocumented field fails tests/service/openapi_test.ts). core/'s wire types
// are the outputs of these schemas.
import { z } from "zod";
import { nameSchema } from "@/core/schema.ts";

export const role = z.enum(["OWNER", "ADMIN", "VIEWER"]);
const inviteRole = z.enum(["ADMIN", "VIEWER"]);
const inviteStatus = z.enum(["PENDING", "EXPIRED", "ACCEPTED", "DECLINED"]);
const id = z.string().min(1);

// Requests. A page form names in a hidden field what the API has in its path.
export const organizationNameBody = z.object({ name: nameSchema });
/** PATCH /api/organizations/:id: a new name, the public links switch, or both. */
export const organizationPatchBody = z.strictObject({
  name: nameSchema.optional(),
  allowPublicLinks: z.boolean().optional().meta({
    description: "off: no public link to a session can be made, and existing ones answer 404",
  }),
  auditViews: z.boolean().optional().meta({
    description: "on: opening a replay writes a session.view audit row (once an hour per viewer)",
  }),
}).refine((b) => Object.values(b).some((v) => v !== undefined), {
  message: "give name, allowPublicLinks or auditViews",
});
/** The overview's "audit replay views" form: a checkbox, absent when off. */
export const auditViewsForm = z.object({ auditViews: z.literal("on").optional() });
export const switchOrganizationBody = z.object({ organizationId: id });
export const deleteOrganizationBody = z.object({
  confirmation: z.string().meta({ description: 'exactly "delete organization"' }),
});
export const memberRoleBody = z.object({ role });
export const memberForm = z.object({ memberId: id });
export const memberRoleForm = memberForm.extend(memberRoleBody.shape);

export const createInviteBody = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254)),
  role: inviteRole,
});
export const refreshInviteBody = z.object({ role: inviteRole.optional() });
export const inviteForm = z.object({ inviteId: id });

// Answers.
export const organization = z.strictObject({
  id: z.string(),
  name: z.string(),
  role,
  memberCount: z.number().int(),
  createdAt: z.iso.datetime(),
  active: z.boolean(),
  allowPublicLinks: z.boolean(),
  auditViews: z.boolean().meta({ description: "opening a replay is audited (session.view)" }),
});
export type OrganizationView = z.output<typeof organization>;

export const membership = z.strictObject({
  id: z.string(),
  role,
  joinedAt: z.iso.datetime(),
  user: z.strictObject({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string(),
    image: z.string().meta({ description: "URL of the avatar (GET /api/avatars/{seed}.svg)" }),
  }),
});
export type MembershipView = z.output<typeof membership>;

const invitedBy = z.strictObject({ name: z.string().nullable(), email: z.string() }).nullable();

export const invite = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: inviteRole,
  /** PENDING past its expiry reads EXPIRED (the row catches up when someone answers it). */
  status: inviteStatus,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  invitedBy,
});
export type InviteView = z.output<typeof invite>;

/** An invite as create and refresh return it: whether its email went out too. */
export const sentInvite = z.strictObject({
  ...invite.shape,
  emailSent: z.boolean().meta({ description: "whether the invite email went out" }),
});
export type SentInviteView = z.output<typeof sentInvite>;

export const userInvite = z.strictObject({
  id: z.string(),
  role: inviteRole,
  status: inviteStatus,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  organization: z.strictObject({ id: z.string(), name: z.string() }),
  invitedBy,
});
