// Unlinking an OAuth provider from the signed-in user (docs/decisions.md "Sign-in and accounts").
// Login methods: each linked OAuth account, plus email code when mail is configured; passkeys never
// count. Removing the last one → 409, logged `auth:account:unlink:guard_blocked`.
import type { AppDeps } from "@/core/deps.ts";
import { unlinkAccountGuarded } from "@/db/queries/account/account_unlink.ts";
import { log } from "@/log.ts";
import { conflict, notFound } from "@/core/errors.ts";
import type { Viewer } from "@/core/auth/viewer.ts";

type Deps = Pick<AppDeps, "config" | "db">;

export async function unlinkAccount(
  deps: Deps,
  viewer: Viewer,
  input: { provider: string },
  context: { requestId?: string } = {},
): Promise<void> {
  const emailCode = deps.config.mail !== null ? 1 : 0;
  const outcome = await unlinkAccountGuarded(
    deps.db.kysely,
    viewer.userId,
    input.provider,
    emailCode,
  );
  const props = { ...context, userId: viewer.userId, provider: input.provider };
  if (outcome === "not_linked") throw notFound("linked account");
  if (outcome === "last_method") {
    log.warn("auth:account:unlink:guard_blocked", props);
    throw conflict("this is your last way to sign in: link another provider first");
  }
  log.info("auth:account:unlink:ok", props);
}
