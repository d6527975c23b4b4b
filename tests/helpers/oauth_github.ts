// A small GitHub-compatible OAuth 2 server on 127.0.0.1 (provider A): authorize redirects straight
// back with a code, the token endpoint insists on the PKCE verifier, /user and /user/emails answer.
import { createHash } from "node:crypto";

export interface GithubIdentity {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface TokenRequest {
  code: string;
  codeVerifier: string | null;
  redirectUri: string | null;
  clientId: string | null;
  accepted: boolean;
}

export interface TestGithub extends AsyncDisposable {
  url: string;
  /** AUTH_OAUTH_A_* variables pointing the app at this server. */
  env: Record<string, string>;
  /** The identity the next authorization signs in as. */
  identity: GithubIdentity;
  /** When set, authorize answers with this OAuth error instead of a code. */
  denyWith: string | null;
  tokenRequests: TokenRequest[];
}

const CLIENT_ID = "gh-client";
const CLIENT_SECRET = "gh-secret";

export function githubIdentity(overrides: Partial<GithubIdentity> = {}): GithubIdentity {
  const id = 1000 + Math.floor(Math.random() * 1_000_000);
  return {
    id,
    login: `octo${id}`,
    name: "Octo Cat",
    emails: [{ email: `octo${id}@example.test`, primary: true, verified: true }],
    ...overrides,
  };
}

export function startTestGithub(): TestGithub {
  const codes = new Map<
    string,
    { identity: GithubIdentity; challenge: string; redirect: string }
  >();
  const tokens = new Map<string, GithubIdentity>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handle);
  const url = `http://127.0.0.1:${server.addr.port}`;
  const github: TestGithub = {
    url,
    env: {
      AUTH_OAUTH_A_ID: CLIENT_ID,
      AUTH_OAUTH_A_SECRET: CLIENT_SECRET,
      AUTH_OAUTH_A_BASE_URL: url,
      AUTH_OAUTH_A_API_URL: `${url}/api`,
    },
    identity: githubIdentity(),
    denyWith: null,
    tokenRequests: [],
    [Symbol.asyncDispose]: () => server.shutdown(),
  };

  async function handle(req: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(req.url);
    if (req.method === "GET" && pathname === "/login/oauth/authorize") {
      const back = new URL(searchParams.get("redirect_uri")!);
      back.searchParams.set("state", searchParams.get("state") ?? "");
      if (github.denyWith) {
        back.searchParams.set("error", github.denyWith);
      } else if (
        searchParams.get("client_id") !== CLIENT_ID ||
        searchParams.get("code_challenge_method") !== "S256"
      ) {
        back.searchParams.set("error", "invalid_request");
      } else {
        const code = crypto.randomUUID();
        codes.set(code, {
          identity: github.identity,
          challenge: searchParams.get("code_challenge") ?? "",
          redirect: back.origin + back.pathname,
        });
        back.searchParams.set("code", code);
      }
      return Response.redirect(back.href, 302);
    }
    if (req.method === "POST" && pathname === "/login/oauth/access_token") {
      return tokenResponse(new URLSearchParams(await req.text()));
    }
    const identity = tokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    if (req.method === "GET" && pathname.startsWith("/api/")) {
      if (!identity) return Response.json({ message: "Bad credentials" }, { status: 401 });
      if (pathname === "/api/user") {
        const { id, login, name } = identity;
        const primary = identity.emails.find((e) => e.primary);
        return Response.json({ id, login, name, email: primary?.email ?? null });
      }
      if (pathname === "/api/user/emails") {
        return Response.json(identity.emails.map((e) => ({ ...e, visibility: null })));
      }
    }
    return Response.json({ message: "Not Found" }, { status: 404 });
  }

  // Like GitHub, failures are 200 with an `error` member.
  function tokenResponse(body: URLSearchParams): Response {
    const code = body.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    const verifier = body.get("code_verifier");
    const request: TokenRequest = {
      code,
      codeVerifier: verifier,
      redirectUri: body.get("redirect_uri"),
      clientId: body.get("client_id"),
      accepted: false,
    };
    github.tokenRequests.push(request);
    const challengeOk = verifier !== null &&
      createHash("sha256").update(verifier).digest("base64url") === issued?.challenge;
    if (
      !issued || !challengeOk || body.get("client_secret") !== CLIENT_SECRET ||
      request.clientId !== CLIENT_ID || request.redirectUri !== issued.redirect
    ) {
      return Response.json({ error: "bad_verification_code" });
    }
    request.accepted = true;
    const token = `gho_${crypto.randomUUID().replaceAll("-", "")}`;
    tokens.set(token, issued.identity);
    return Response.json({ access_token: token, token_type: "bearer", scope: "read:user" });
  }

  return github;
}
