// The signed-in user's own profile (docs/decisions.md "Account"): read, rename, new avatar and
// account deletion.
import type { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  findUserById,
  loginMethodsOf,
  renameUser,
  setAvatarSeed,
} from "@/db/queries/account/users.ts";
import { log } from "@/log.ts";
import { avatarUrl } from "@/core/service/avatar.ts";
import { authError, validation } from "@/core/errors.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { toPasskey } from "@/core/auth/passkeys/passkeys.ts";
import { deleteUserAccount } from "./account_deletion.ts";
import type { userProfile } from "./schema.ts";

export const DELETE_ACCOUNT_PHRASE = "delete my account";

type UserDeps = Pick<AppDeps, "config" | "db">;

export type UserProfile = z.output<typeof userProfile>;

export async function getProfile(deps: UserDeps, viewer: Viewer): Promise<UserProfile> {
  const db = deps.db.kysely;
  const [user, methods] = await Promise.all([
    findUserById(db, viewer.userId),
    loginMethodsOf(db, viewer.userId),
  ]);
  if (!user) throw authError();
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    image: avatarUrl(deps.config.appUrl, user.avatar_seed),
    createdAt: new Date(user.created_at).toISOString(),
    activeOrganizationId: viewer.activeOrganizationId,
    accounts: methods.accounts.map((a) => ({ provider: a.provider })),
    passkeys: methods.passkeys.map(toPasskey),
  };
}

/** `name` arrives trimmed and 1..80 characters long (validated at the edge). */
export async function renameProfile(
  deps: UserDeps,
  viewer: Viewer,
  input: { name: string },
): Promise<UserProfile> {
  await renameUser(deps.db.kysely, viewer.userId, input.name);
  return await getProfile(deps, viewer);
}

/** Replaces the avatar seed with a fresh UUID; returns the new image URL. */
export async function regenerateAvatar(deps: UserDeps, viewer: Viewer): Promise<string> {
  const seed = crypto.randomUUID();
  await setAvatarSeed(deps.db.kysely, viewer.userId, seed);
  return avatarUrl(deps.config.appUrl, seed);
}

/** Deletes the account and everything only it held; the caller clears the cookie. */
export async function deleteAccount(
  deps: UserDeps,
  viewer: Viewer,
  input: { confirmation: string },
): Promise<void> {
  if (input.confirmation !== DELETE_ACCOUNT_PHRASE) {
    throw validation(`type "${DELETE_ACCOUNT_PHRASE}" to confirm`, [
      { path: "confirmation", message: `must be exactly "${DELETE_ACCOUNT_PHRASE}"` },
    ]);
  }
  const result = await deleteUserAccount(deps.db.kysely, viewer.userId);
  log.info("user:account:delete:ok", { userId: viewer.userId, ...result });
}
