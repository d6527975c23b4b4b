// Session tokens: HS256 JWTs signed with AUTH_SECRET, carrying the user id and the user's token
// version. No session table: bumping users.token_version revokes every token at once,
// and each token's id (`jti`) lets sign-out revoke that one token (db/queries/auth/revoked.ts).
import { jwtVerify, SignJWT } from "jose";
import type { Config } from "@/config.ts";
import { log } from "@/log.ts";

export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

export interface SessionClaims {
  userId: string;
  version: number;
}

/** A verified token: its claims, its id and when it expires. */
export interface VerifiedSession extends SessionClaims {
  tokenId: string;
  expiresAt: Date;
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
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(encoder.encode(secret));
}

/**
 * The claims of a valid, unexpired token signed with `secret`; null for anything else, including a
 * token without an id (issued before tokens could be revoked one by one).
 */
export async function verifySession(
  secret: string,
  token: string,
): Promise<VerifiedSession | null> {
  try {
    const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ["HS256"] });
    const { sub, ver, jti, exp } = payload;
    if (typeof sub !== "string" || !Number.isInteger(ver)) return null;
    if (typeof jti !== "string" || !jti || typeof exp !== "number") return null;
    return { userId: sub, version: ver as number, tokenId: jti, expiresAt: new Date(exp * 1000) };
  } catch {
    return null;
  }
}
