// The SDK's authentication: the project's public key in `x-service-public-key`. Its format, and
// whether some project has it (core/ingest/known_keys.ts), are checked here, before the body is
// read, so a bad or unknown key is 401 whatever the body holds and costs no decoding; the ingest
// statement still finds the key's project itself (core/ingest/ingest.ts). Whether that project
// records requests is read with it, for ingest (`recordsNetwork`).
import type { MiddlewareHandler } from "hono";
import { authError } from "@/core/errors.ts";
import type { KeyProject, KnownKeys } from "@/core/ingest/known_keys.ts";
import { PUBLIC_KEY_PATTERN } from "@/core/projects/keys.ts";
import { log } from "@/log.ts";
import type { ApiEnv } from "./env.ts";

export const PUBLIC_KEY_HEADER = "x-service-public-key";

type WithKey = ApiEnv & { Variables: { publicKey: string } };

/** Not known (the lookup failed or was late): a project is taken to record no requests. */
const UNKNOWN = { recordsNetwork: false };

export interface PublicKeyOptions {
  keys: KnownKeys;
  /**
   * How long the key lookup may take; past it (or when it fails) the request goes on and the
   * write statement decides, so a slow database is answered as before (the ingest budget's 503).
   */
  lookupBudgetMs: number;
}

/**
 * Hands a well-formed key to the handler as `c.var.publicKey`, and whether its project records
 * requests as `c.var.recordsNetwork`; refuses a missing or malformed key, and one that no project
 * has.
 */
export function publicKey(options: PublicKeyOptions): MiddlewareHandler<WithKey> {
  return async (c, next) => {
    const key = c.req.header(PUBLIC_KEY_HEADER);
    if (!key || !PUBLIC_KEY_PATTERN.test(key)) {
      const reason = key ? "malformed" : "missing";
      log.warn("ingest:auth:invalid_key", { requestId: c.var.requestId, reason });
      throw authError(key ? "malformed public key" : `missing ${PUBLIC_KEY_HEADER} header`);
    }
    const project = await keyProject(options, key);
    if (project === null) {
      log.warn("ingest:auth:invalid_key", { requestId: c.var.requestId, reason: "unknown" });
      throw authError("unknown public key");
    }
    c.set("publicKey", key);
    c.set("recordsNetwork", (project ?? UNKNOWN).recordsNetwork);
    await next();
  };
}

/**
 * The lookup's answer (null: no project has the key), or undefined when it failed or took longer
 * than its budget.
 */
async function keyProject(
  options: PublicKeyOptions,
  key: string,
): Promise<KeyProject | null | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), options.lookupBudgetMs);
  });
  try {
    return await Promise.race([options.keys.project(key).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
