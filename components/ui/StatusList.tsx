// The service's version, database and migration level as a definition list (no hooks: usable on
// the server and inside islands).
import type { ServiceStatus } from "@/core/deps.ts";

const DATABASE_NAMES: Record<ServiceStatus["databaseKind"], string> = {
  postgres: "PostgreSQL",
  pglite: "PGlite (embedded)",
};

export function StatusList({ status }: { status: ServiceStatus }) {
  return (
    <dl class="status">
      <dt>Version</dt>
      <dd>{status.version}</dd>
      <dt>Database</dt>
      <dd>{DATABASE_NAMES[status.databaseKind]}</dd>
      <dt>Migration level</dt>
      <dd>
        <code>{status.migrationLevel}</code>
      </dd>
    </dl>
  );
}
