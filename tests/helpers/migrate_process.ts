// `deno task db:migrate` as a user runs it: a separate process, configured by the environment.

export async function runMigrate(env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "db/migrate.ts"],
    // Only what deno itself needs, so the caller's DATABASE_URL cannot leak into the run.
    // No NODE_ENV or AUTH_SECRET: migrating needs only the database settings.
    env: { ...pick("HOME", "PATH", "DENO_DIR"), ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code, out: decode(stdout) + decode(stderr) };
}

function pick(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => Deno.env.has(n) ? [[n, Deno.env.get(n)!]] : []));
}
