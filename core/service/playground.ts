// Development's Playground (README "Send a first batch"): a project created at start, whose key the
// log prints before any account exists. The first user to sign in takes its organization as their
// workspace, so that key records into a project they see, and the daily cleanup spares the
// organization while it waits for that user. Production has none of this.
import type { Config } from "@/config.ts";
import type { AppDeps } from "@/core/deps.ts";
import { DEV_ORGANIZATION_ID, ensureDevProject } from "@/db/queries/service/dev_seed.ts";
import type { NewUser } from "@/db/queries/account/users.ts";
import { generateProjectKey } from "@/core/projects/keys.ts";

type Env = Pick<Config, "nodeEnv">;

const enabled = (config: Env) => config.nodeEnv === "development";

/** Creates the Playground once (development only) and returns it with its key; else null. */
export async function ensurePlayground(deps: Pick<AppDeps, "config" | "db">) {
  if (!enabled(deps.config)) return null;
  return await ensureDevProject(deps.db.kysely, generateProjectKey);
}

/** The workspace a new user starts in: the unclaimed Playground's organization in development. */
export function newUserWorkspace(
  config: Env,
  person: { email: string; name: string | null },
): Pick<NewUser, "workspaceName" | "adoptOrganizationId"> {
  return {
    workspaceName: `${person.name ?? person.email.split("@")[0]}'s workspace`,
    adoptOrganizationId: enabled(config) ? DEV_ORGANIZATION_ID : undefined,
  };
}

/** Organizations the cleanup leaves alone even without members. */
export function sparedOrganizations(config: Env): string[] {
  return enabled(config) ? [DEV_ORGANIZATION_ID] : [];
}
