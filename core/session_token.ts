// Session tokens: HS256 JWTs signed with AUTH_SECRET, carrying the user id and the user's token
// version (DESIGN §8). No session table: bumping users.token_version revokes every token at once.
import { jwtVerify, SignJWT } from "jose";
import type { Config } from "../config.ts";
import { log } from "../log.ts";

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface SessionClaims {
  userId: string;
  version: number;
}

// One random secret per process, so tokens survive a second createDeps in the same process but
// never a restart (development and tests only: production requires AUTH_SECRET).
let processSecret: string | null = null;

/** AUTH_SECRET, or (outside production) a per-process random secret with a warning. */
export function resolveAuthSecret(config: Config): string {
  if (config.authSecret) return config.authSecret;
  if (config.nodeEnv === "production") throw new Error("AUTH_SECRET is required in production");
  processSecret ??= Array.from(
    crypto.getRandomValues(new Uint8Array(32)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  log.warn("auth:secret:ephemeral", {
    message: "AUTH_SECRET is not set: sessions end when the process restarts",
  });
  return processSecret;
}

const encoder = new TextEncoder();

export async function signSession(secret: string, claims: SessionClaims): Promise<string> {
  return await new SignJWT({ ver: claims.version })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(encoder.encode(secret));
}

/** The claims of a valid, unexpired token signed with `secret`; null for anything else. */
export async function verifySession(secret: string, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ["HS256"] });
    if (typeof payload.sub !== "string" || !Number.isInteger(payload.ver)) return null;
    return { userId: payload.sub, version: payload.ver as number };
  } catch {
    return null;
  }
}
