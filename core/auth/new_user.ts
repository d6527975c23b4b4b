// What a first sign-in starts in (docs/decisions.md "Sign-in and accounts"): a workspace of its
// own (development's unclaimed Playground), unless an invite waits for the email. Then it starts
// without one, lands on its invites and works in the inviting organization once it accepts, never
// in an empty workspace it did not ask for.
import type { AppDeps } from "@/core/deps.ts";
import { pendingInvitesFor } from "@/db/queries/account/invites.ts";
import type { NewUser } from "@/db/queries/account/users.ts";
import { newUserWorkspace } from "@/core/service/playground.ts";

export async function newUserStart(
  deps: Pick<AppDeps, "config" | "db">,
  person: { email: string; name: string | null },
): Promise<Pick<NewUser, "workspaceName" | "adoptOrganizationId">> {
  const invites = await pendingInvitesFor(deps.db.kysely, person.email);
  return invites.length ? { workspaceName: null } : newUserWorkspace(deps.config, person);
}
