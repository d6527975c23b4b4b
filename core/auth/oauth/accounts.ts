// Who an OAuth profile signs in: the user the account is linked to; else the user with the same
// email, only when the provider vouches for it; else a new user with their own workspace.
import type { AppDeps } from "@/core/deps.ts";
import { accountOwner, insertAccount } from "@/db/queries/auth/oauth.ts";
import { findOrCreateUser } from "@/db/queries/account/users.ts";
import { log } from "@/log.ts";
import { newUserStart } from "@/core/auth/new_user.ts";
import { conflict } from "@/core/errors.ts";
import type { OAuthProfile } from "./profile.ts";
import type { OAuthProvider } from "./providers.ts";

type AccountDeps = Pick<AppDeps, "config" | "db">;

/** Why a sign-in is refused; the sign-in page receives it as `?error=`. */
export type RefusalCode = "email_unverified" | "account_conflict";

export type SignInResult = { userId: string; created: boolean } | { refused: RefusalCode };

export async function signInWithProfile(
  deps: AccountDeps,
  provider: OAuthProvider,
  profile: OAuthProfile,
): Promise<SignInResult> {
  const db = deps.db.kysely;
  const owner = await accountOwner(db, provider.id, profile.providerAccountId);
  if (owner) return { userId: owner, created: false };
  // An unverified address proves nothing: linking it would hand someone else's account over,
  // and creating a user under it would squat the address (emails are unique), so refuse.
  if (!profile.email || !profile.emailVerified) return { refused: "email_unverified" };

  const person = { email: profile.email, name: profile.name };
  const user = await findOrCreateUser(db, {
    ...person,
    ...await newUserStart(deps, person),
    verified: true,
  });
  if (user.adopted) log.info("dev:playground:claimed", { userId: user.id });
  const account = { userId: user.id, provider: provider.id, email: profile.email };
  if (!await insertAccount(db, { ...account, providerAccountId: profile.providerAccountId })) {
    // Either a concurrent callback linked it first, or the user has another account of this
    // provider linked already (one per provider).
    const now = await accountOwner(db, provider.id, profile.providerAccountId);
    if (now) return { userId: now, created: false };
    return { refused: "account_conflict" };
  }
  log.info("auth:account:link:ok", { userId: user.id, provider: provider.id, via: "email" });
  return { userId: user.id, created: user.created };
}

/** Links the profile's account to the signed-in user; 409 when it belongs to someone else. */
export async function linkProfile(
  deps: AccountDeps,
  userId: string,
  provider: OAuthProvider,
  profile: OAuthProfile,
): Promise<void> {
  const db = deps.db.kysely;
  const owner = await accountOwner(db, provider.id, profile.providerAccountId);
  if (owner === userId) return;
  if (owner) {
    log.warn("auth:account:link:conflict", { userId, provider: provider.id, reason: "other_user" });
    throw conflict(`this ${provider.name} account is linked to another user`);
  }
  const linked = await insertAccount(db, {
    userId,
    provider: provider.id,
    providerAccountId: profile.providerAccountId,
    email: profile.email,
  });
  if (!linked) {
    if (await accountOwner(db, provider.id, profile.providerAccountId) === userId) return;
    log.warn("auth:account:link:conflict", { userId, provider: provider.id, reason: "taken" });
    throw conflict(
      `another ${provider.name} account is linked already, or this one was just linked elsewhere`,
    );
  }
  log.info("auth:account:link:ok", { userId, provider: provider.id, via: "explicit" });
}
