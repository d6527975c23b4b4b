// What /api/health reports once the database has answered: the service's status (core/deps.ts).
import type { AppDeps, ServiceStatus } from "@/core/deps.ts";
import { pingDatabase } from "@/db/queries/service/health.ts";

/** The service status, read after a query the database answered. */
export async function serviceStatus(deps: AppDeps): Promise<ServiceStatus> {
  await pingDatabase(deps.db.kysely);
  return await deps.status();
}
