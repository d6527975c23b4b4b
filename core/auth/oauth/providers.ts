// The two configurable OAuth providers (docs/decisions.md "Sign-in and accounts"): `github` is
// GitHub-style OAuth 2 with fixed endpoint paths under overridable base URLs, `google` is any
// OpenID Connect issuer (discovery).
import * as oauth from "oauth4webapi";
import type { Config } from "@/config.ts";

export type ProviderId = "github" | "google";

export interface OAuthProvider {
  id: ProviderId;
  name: string;
  kind: "github" | "oidc";
  client: oauth.Client;
  clientAuth: oauth.ClientAuth;
  scope: string;
  /** GitHub's REST API base (github kind only). */
  apiUrl?: string;
  /** The authorization server's metadata (discovered once per issuer for OIDC). */
  server(): Promise<oauth.AuthorizationServer>;
}

/** The configured provider of that id, or null (unknown or unconfigured: a 404). */
export function oauthProvider(config: Config, id: string): OAuthProvider | null {
  if (id === "github" && config.oauthA) {
    const { baseUrl, apiUrl } = config.oauthA;
    const server: oauth.AuthorizationServer = {
      issuer: baseUrl,
      authorization_endpoint: `${baseUrl}/login/oauth/authorize`,
      token_endpoint: `${baseUrl}/login/oauth/access_token`,
    };
    return {
      id,
      name: "GitHub",
      kind: "github",
      client: { client_id: config.oauthA.id },
      clientAuth: oauth.ClientSecretPost(config.oauthA.secret),
      scope: "read:user user:email",
      apiUrl,
      server: () => Promise.resolve(server),
    };
  }
  if (id === "google" && config.oauthB) {
    const issuer = config.oauthB.issuer;
    return {
      id,
      name: "Google",
      kind: "oidc",
      client: { client_id: config.oauthB.id },
      clientAuth: oauth.ClientSecretPost(config.oauthB.secret),
      scope: "openid email profile",
      server: () => discover(issuer),
    };
  }
  return null;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Options for oauth4webapi requests to `url`: plain http only towards this machine (test peers). */
export function requestOptions(url: string): { [oauth.allowInsecureRequests]?: true } {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && LOOPBACK.has(hostname)
    ? { [oauth.allowInsecureRequests]: true }
    : {};
}

// One discovery per issuer per process; a failed one is retried by the next sign-in.
const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  let pending = discovered.get(issuer);
  if (!pending) {
    const url = new URL(issuer);
    pending = oauth.discoveryRequest(url, { algorithm: "oidc", ...requestOptions(issuer) })
      .then((response) => oauth.processDiscoveryResponse(url, response));
    pending.catch(() => discovered.delete(issuer));
    discovered.set(issuer, pending);
  }
  return pending;
}
