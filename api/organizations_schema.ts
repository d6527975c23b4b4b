// Wire schemas of /api/organizations and its members (DECISIONS "Organisations, members,
// invites"): requests as the handlers parse them, answers of core/organizations.ts and
// core/members.ts (strict, so an undocumented field fails tests/openapi_test.ts).
import { z } from "zod";

export const role = z.enum(["OWNER", "ADMIN", "VIEWER"]);

export const organizationNameBody = z.object({ name: z.string().trim().min(1).max(80) });
export const switchOrganizationBody = z.object({ organizationId: z.string().min(1) });
export const deleteOrganizationBody = z.object({
  confirmation: z.string().meta({ description: 'exactly "delete organization"' }),
});
export const memberRoleBody = z.object({ role });

export const organization = z.strictObject({
  id: z.string(),
  name: z.string(),
  role,
  memberCount: z.number().int(),
  createdAt: z.iso.datetime(),
  active: z.boolean(),
});

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
