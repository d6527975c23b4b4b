// An OpenID Connect issuer on 127.0.0.1 (provider B): oauth2-mock-server with the id_token claims
// a test chooses, and a token endpoint that refuses an authorization code without its PKCE verifier.
import { Events, OAuth2Server } from "oauth2-mock-server";

export interface OidcIdentity {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidc extends AsyncDisposable {
  issuer: string;
  /** AUTH_OAUTH_B_* variables pointing the app at this issuer. */
  env: Record<string, string>;
  /** The claims the next id_token carries. */
  identity: OidcIdentity;
  /** The form bodies the token endpoint received. */
  tokenRequests: Array<Record<string, string>>;
}

export function oidcIdentity(overrides: Partial<OidcIdentity> = {}): OidcIdentity {
  const sub = crypto.randomUUID();
  return { sub, email: `${sub.slice(0, 8)}@example.test`, email_verified: true, ...overrides };
}

export async function startTestOidc(): Promise<TestOidc> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  // The library names loopback "localhost"; keep the address the socket really listens on.
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;
  const oidc: TestOidc = {
    issuer,
    env: {
      AUTH_OAUTH_B_ID: "oidc-client",
      AUTH_OAUTH_B_SECRET: "oidc-secret",
      AUTH_OAUTH_B_ISSUER: issuer,
    },
    identity: oidcIdentity(),
    tokenRequests: [],
    [Symbol.asyncDispose]: () => server.stop(),
  };
  server.service.on(Events.BeforeTokenSigning, (token) => {
    Object.assign(token.payload, oidc.identity);
  });
  server.service.on(Events.BeforeResponse, (response, req) => {
    const body = req.body as Record<string, string>;
    oidc.tokenRequests.push(body);
    // The mock checks a verifier only when one is sent; a real issuer demands it.
    if (body.grant_type === "authorization_code" && !body.code_verifier) {
      response.statusCode = 400;
      response.body = { error: "invalid_grant", error_description: "code_verifier required" };
    }
  });
  return oidc;
}
