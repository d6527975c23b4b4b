// The SDK's authentication: the project's public key in `x-service-public-key`. Its format is
// checked here, once and before the body is read, so a bad key is 401 whatever the body holds;
// whether a project has it is decided by the ingest statement itself (core/ingest/ingest.ts).
import type { MiddlewareHandler } from "hono";
import { authError } from "../core/errors.ts";
import { PUBLIC_KEY_PATTERN } from "../core/projects/keys.ts";
import { log } from "../log.ts";
import type { ApiEnv } from "./env.ts";

export const PUBLIC_KEY_HEADER = "x-service-public-key";

type WithKey = ApiEnv & { Variables: { publicKey: string } };

/** Hands a well-formed key to the handler as `c.var.publicKey`; refuses a missing or malformed one. */
export function publicKey(): MiddlewareHandler<WithKey> {
  return async (c, next) => {
    const key = c.req.header(PUBLIC_KEY_HEADER);
    if (!key || !PUBLIC_KEY_PATTERN.test(key)) {
      const reason = key ? "malformed" : "missing";
      log.warn("ingest:auth:invalid_key", { requestId: c.var.requestId, reason });
      throw authError(key ? "malformed public key" : `missing ${PUBLIC_KEY_HEADER} header`);
    }
    c.set("publicKey", key);
    await next();
  };
}
