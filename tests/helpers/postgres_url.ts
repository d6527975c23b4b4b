// The PostgreSQL server a `*_postgres_test.ts` file runs on. Such a file tests what the embedded
// PGlite (one connection, in this process) cannot show; `deno task test` leaves it out and CI's
// PostgreSQL pass runs it, so no pass reports it ignored.
export function postgresUrl(): string {
  const url = Deno.env.get("DATABASE_URL");
  if (!url) throw new Error("a *_postgres_test.ts file runs on PostgreSQL: set DATABASE_URL");
  return url;
}
