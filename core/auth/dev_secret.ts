// Development's session secret when AUTH_SECRET is not set: kept under DATA_DIR, beside the
// embedded database, so a restart (every --watch reload) does not sign everyone out. Production
// never gets here: its configuration check requires AUTH_SECRET.
import { join } from "node:path";
import type { Config } from "@/config.ts";
import { log } from "@/log.ts";

const FILE = "auth-secret";

/** The config with development's kept secret filled in; any other config as it is. */
export async function withDevSecret(config: Config): Promise<Config> {
  if (config.nodeEnv !== "development" || config.authSecret) return config;
  const path = join(config.dataDir, FILE);
  let secret = (await Deno.readTextFile(path).catch(() => "")).trim();
  if (secret.length < 64) {
    secret = Array.from(
      crypto.getRandomValues(new Uint8Array(32)),
      (b) => b.toString(16).padStart(2, "0"),
    )
      .join("");
    await Deno.mkdir(config.dataDir, { recursive: true });
    await Deno.writeTextFile(path, secret, { mode: 0o600 });
  }
  log.info("auth:secret:dev", {
    message: `AUTH_SECRET is not set: development signs sessions with the secret kept in ${path}`,
  });
  return { ...config, authSecret: secret };
}
