// Throttle middleware for unauthenticated endpoints (docs/decisions.md "Sign-in and accounts"):
// counts the call against limits keyed by the client's address (and global ones) before the
// handler runs.
import type { MiddlewareHandler } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { type Limit, throttle } from "@/core/throttle.ts";
import { addressGroup, clientAddress } from "@/http/client_address.ts";
import type { ApiEnv } from "./env.ts";

const HOUR = 3600;
const MINUTE = 60;

export function throttled(
  deps: AppDeps,
  tag: string,
  limitsFor: (address: string) => Limit[],
): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const address = addressGroup(clientAddress(c, deps.config.trustProxy));
    await throttle(deps.db.kysely, limitsFor(address), { tag, requestId: c.var.requestId });
    await next();
  };
}

/**
 * Sign-in code mails per client address (an IPv6 /64) per hour. The hourly budgets in total are
 * counted once the address is known (core/auth/otp.ts): existing accounts apart from new ones.
 */
export function otpSendThrottle(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  const { otpSendsPerAddressHourly } = deps.config.limits;
  return throttled(deps, "auth:otp", (address) => [
    { bucket: `otp:addr:${address}`, max: otpSendsPerAddressHourly, windowSeconds: HOUR },
  ]);
}

/** Passkey sign-in options (each writes a challenge row): per client address, per minute. */
export function passkeyOptionsThrottle(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  const max = deps.config.limits.passkeyOptionsPerAddressMinute;
  return throttled(deps, "auth:passkey", (address) => [
    { bucket: `passkey:addr:${address}`, max, windowSeconds: MINUTE },
  ]);
}
