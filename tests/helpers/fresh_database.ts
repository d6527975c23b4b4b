// An empty PostgreSQL database of its own, for a child process that migrates and uses it as an
// operator's would (the entries' and db:migrate's tests); dropped on dispose.
import postgres from "postgres";

export interface FreshDatabase extends AsyncDisposable {
  url: string;
}

export async function freshDatabase(adminUrl: string): Promise<FreshDatabase> {
  const name = `playhead_entry_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    [Symbol.asyncDispose]: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
