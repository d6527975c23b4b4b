// Wire schemas of /api/user (docs/decisions.md "Account"): requests as the handlers parse them, and
// the answers of core/account/ and core/auth/passkeys/ (strict, so an undocumented field fails
// tests).
import { z } from "zod";
import { nameSchema } from "@/core/schema.ts";

export const renameUserBody = z.object({ name: nameSchema });
export const deleteUserBody = z.object({
  confirmation: z.string().meta({ description: 'exactly "delete my account"' }),
});

export const passkey = z.strictObject({
  credentialID: z.string(),
  name: z.string(),
  credentialDeviceType: z.string().meta({ description: "singleDevice or multiDevice" }),
  createdAt: z.iso.datetime(),
});

export const userProfile = z.strictObject({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  image: z.string().meta({ description: "URL of the avatar (GET /api/avatars/{seed}.svg)" }),
  createdAt: z.iso.datetime(),
  activeOrganizationId: z.string().nullable(),
  accounts: z.array(z.strictObject({ provider: z.string() })),
  passkeys: z.array(passkey),
});

export const avatarAnswer = z.strictObject({ image: z.string() });
