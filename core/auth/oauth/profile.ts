// Who signed in at the provider: the account id, email and whether the provider vouches for the
// email. GitHub-style: the /user and /user/emails APIs; OIDC: the validated id_token's claims.
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import type { OAuthProvider } from "./providers.ts";

export interface OAuthProfile {
  providerAccountId: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Reads the profile from a processed token response. */
export async function fetchProfile(
  provider: OAuthProvider,
  server: oauth.AuthorizationServer,
  tokens: oauth.TokenEndpointResponse,
): Promise<OAuthProfile> {
  return provider.kind === "github"
    ? await githubProfile(provider.apiUrl!, tokens.access_token)
    : await oidcProfile(provider, server, tokens);
}

interface GithubUser {
  id: number;
  login: string;
  name: string | null;
}

interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

async function githubProfile(apiUrl: string, accessToken: string): Promise<OAuthProfile> {
  const [user, emails] = await Promise.all([
    githubGet<GithubUser>(`${apiUrl}/user`, accessToken),
    githubGet<GithubEmail[]>(`${apiUrl}/user/emails`, accessToken),
  ]);
  if (typeof user?.id !== "number" || !Array.isArray(emails)) {
    throw new Error("unexpected GitHub API response");
  }
  const primary = emails.find((e) => e.primary);
  return {
    providerAccountId: String(user.id),
    email: primary?.email.toLowerCase() ?? null,
    emailVerified: primary?.verified === true,
    name: user.name?.trim() || user.login,
  };
}

async function githubGet<T>(url: string, accessToken: string): Promise<T> {
  const response = await fetch(url, {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      Accept: "application/vnd.github+json",
      "User-Agent": "Playhead",
    },
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`GitHub API ${new URL(url).pathname} answered ${response.status}`);
  }
  return await response.json() as T;
}

// The id_token came straight from the token endpoint, which oauth4webapi has already checked for
// iss, aud, exp and nonce; its signature is verified against the issuer's keys as well.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function oidcProfile(
  provider: OAuthProvider,
  server: oauth.AuthorizationServer,
  tokens: oauth.TokenEndpointResponse,
): Promise<OAuthProfile> {
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  if (!claims || !tokens.id_token || !server.jwks_uri) throw new Error("no id_token");
  let keys = keySets.get(server.jwks_uri);
  if (!keys) keySets.set(server.jwks_uri, keys = createRemoteJWKSet(new URL(server.jwks_uri)));
  await jwtVerify(tokens.id_token, keys, {
    issuer: server.issuer,
    audience: provider.client.client_id,
  });
  const email = typeof claims.email === "string" ? claims.email.toLowerCase() : null;
  return {
    providerAccountId: claims.sub,
    email,
    emailVerified: email !== null && claims.email_verified === true,
    name: typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : null,
  };
}
