// The OAuth authorization-code flow with PKCE (S256), state and (OIDC) nonce: `beginOAuth` makes
// the provider URL, `completeOAuth` takes the state once, exchanges the code and decides the user.
import { createHash } from "node:crypto";
import * as oauth from "oauth4webapi";
import type { AppDeps } from "@/core/deps.ts";
import { saveOAuthState, takeOAuthState } from "@/db/queries/auth/oauth.ts";
import { log } from "@/log.ts";
import { authError, notFound, validation } from "@/core/errors.ts";
import { linkProfile, signInWithProfile } from "./accounts.ts";
import { fetchProfile, type OAuthProfile } from "./profile.ts";
import { type OAuthProvider, oauthProvider, requestOptions } from "./providers.ts";
import { safeCallbackPath, withErrorCode } from "@/core/auth/safe_redirect.ts";

type FlowDeps = Pick<AppDeps, "config" | "db">;

/** How long a sign-in attempt may take at the provider; its state (and cookie) expire then. */
export const OAUTH_STATE_TTL_SECONDS = 10 * 60;

/** Where failed sign-ins land, with `?error=<code>`. */
export const SIGN_IN_PATH = "/signin";

export type CallbackOutcome =
  | { kind: "signed_in"; userId: string; location: string }
  | { kind: "linked"; location: string }
  | { kind: "refused"; location: string };

export function redirectUri(deps: FlowDeps, provider: OAuthProvider): string {
  return `${deps.config.authUrl}/api/auth/callback/${provider.id}`;
}

function providerOr404(deps: FlowDeps, id: string): OAuthProvider {
  const provider = oauthProvider(deps.config, id);
  if (!provider) throw notFound("sign-in provider");
  return provider;
}

const hashState = (state: string) => createHash("sha256").update(state).digest("hex");

/** The provider's authorization URL and the state to bind to the browser (cookie). */
export async function beginOAuth(
  deps: FlowDeps,
  providerId: string,
  input: { callbackUrl?: string | null; linkUserId: string | null },
): Promise<{ location: string; state: string | null }> {
  const provider = providerOr404(deps, providerId);
  let server: oauth.AuthorizationServer;
  try {
    server = await provider.server();
  } catch (error) {
    log.warn("auth:oauth:discovery:failed", { provider: provider.id, error: String(error) });
    return { location: withErrorCode(SIGN_IN_PATH, "oauth_unavailable"), state: null };
  }
  const state = oauth.generateRandomState();
  const verifier = oauth.generateRandomCodeVerifier();
  const nonce = provider.kind === "oidc" ? oauth.generateRandomNonce() : null;
  await saveOAuthState(deps.db.kysely, hashState(state), {
    provider: provider.id,
    code_verifier: verifier,
    nonce,
    callback_url: safeCallbackPath(input.callbackUrl),
    link_user_id: input.linkUserId,
  }, OAUTH_STATE_TTL_SECONDS);

  const url = new URL(server.authorization_endpoint!);
  url.searchParams.set("client_id", provider.client.client_id);
  url.searchParams.set("redirect_uri", redirectUri(deps, provider));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", provider.scope);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  if (nonce) url.searchParams.set("nonce", nonce);
  return { location: url.href, state };
}

/**
 * Finishes the flow for the callback's query. A missing, mismatched, expired or replayed state is
 * a 400; a provider refusal or failure sends the browser back to sign-in with an error code.
 */
export async function completeOAuth(
  deps: FlowDeps,
  providerId: string,
  input: { query: URLSearchParams; cookieState: string | null; viewerId: string | null },
): Promise<CallbackOutcome> {
  const provider = providerOr404(deps, providerId);
  const state = input.query.get("state");
  if (!state || !input.cookieState || state !== input.cookieState) {
    log.warn("auth:oauth:state:rejected", { provider: provider.id, reason: "mismatch" });
    throw validation("the sign-in state is missing or does not match this browser; start again");
  }
  const attempt = await takeOAuthState(deps.db.kysely, hashState(state), provider.id);
  if (!attempt) {
    log.warn("auth:oauth:state:rejected", { provider: provider.id, reason: "unknown_or_used" });
    throw validation("the sign-in state is unknown, expired or already used; start again");
  }
  const failed = (code: string) => ({
    kind: "refused" as const,
    location: withErrorCode(attempt.link_user_id ? attempt.callback_url : SIGN_IN_PATH, code),
  });

  let profile: OAuthProfile;
  try {
    profile = await exchange(deps, provider, input.query, state, attempt);
  } catch (error) {
    const denied = error instanceof oauth.AuthorizationResponseError;
    log.warn("auth:oauth:callback:provider_error", {
      provider: provider.id,
      error: denied ? error.error : String(error),
    });
    return failed(denied ? "oauth_denied" : "oauth_failed");
  }

  if (attempt.link_user_id) {
    if (input.viewerId !== attempt.link_user_id) {
      throw authError("sign in again to link an account");
    }
    await linkProfile(deps, attempt.link_user_id, provider, profile);
    return { kind: "linked", location: attempt.callback_url };
  }
  const result = await signInWithProfile(deps, provider, profile);
  if ("refused" in result) {
    log.warn("auth:oauth:callback:refused", { provider: provider.id, reason: result.refused });
    return failed(result.refused);
  }
  log.info("auth:oauth:callback:ok", {
    provider: provider.id,
    userId: result.userId,
    created: result.created,
  });
  return { kind: "signed_in", userId: result.userId, location: attempt.callback_url };
}

async function exchange(
  deps: FlowDeps,
  provider: OAuthProvider,
  query: URLSearchParams,
  state: string,
  attempt: { code_verifier: string; nonce: string | null },
): Promise<OAuthProfile> {
  const server = await provider.server();
  const params = oauth.validateAuthResponse(server, provider.client, query, state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    provider.client,
    provider.clientAuth,
    params,
    redirectUri(deps, provider),
    attempt.code_verifier,
    requestOptions(server.token_endpoint!),
  );
  const tokens = await oauth.processAuthorizationCodeResponse(server, provider.client, response, {
    expectedNonce: attempt.nonce ?? undefined,
    requireIdToken: provider.kind === "oidc",
  });
  return await fetchProfile(provider, server, tokens);
}
