// The permission matrix (docs/decisions.md "Roles", "Common API rules"): every dashboard endpoint ×
// caller → the status it must answer. Callers: OWNER, ADMIN and VIEWER of organization 1 (active);
// OTHER, the OWNER of organization 2 (active there), who finds nothing of organization 1 (404), nor
// they anything of organization 2; ANON, signed out (401). A 2xx cell means allowed. `{token}`s are
// ids from the seeded world (tests/helpers/permission_world.ts); each section runs on a fresh
// world, so destructive rows of one section never disturb another.
import type { Caller } from "./helpers/permission_world.ts";

export interface Row {
  /** "METHOD /path", with `{token}`s. */
  route: string;
  expect: Record<Caller, number>;
  body?: unknown;
  /** Send `Authorization: Bearer <CRON_SECRET>` as well as the caller's cookie. */
  bearer?: boolean;
}

export interface Section {
  name: string;
  rows: Row[];
}

function r(
  route: string,
  [owner, admin, viewer, other, anon]: number[],
  options: Omit<Row, "route" | "expect"> = {},
): Row {
  return {
    route,
    expect: { OWNER: owner, ADMIN: admin, VIEWER: viewer, OTHER: other, ANON: anon },
    ...options,
  };
}

// Columns:                        OWNER ADMIN VIEWER OTHER ANON
const ANY_MEMBER = (ok: number) => [ok, ok, ok, 404, 401];
const SIGNED_IN = (ok: number) => [ok, ok, ok, ok, 401];
const ADMIN_UP = (ok: number) => [ok, ok, 403, 404, 401];
const OWNER_ONLY = (ok: number) => [ok, 403, 403, 404, 401];
const ANYONE = (ok: number) => [ok, ok, ok, ok, ok];
const ELSEWHERE = (ok: number) => [404, 404, 404, ok, 401]; // organization 2's resources

export const MATRIX: Section[] = [
  {
    name: "reads",
    rows: [
      r("GET /api/user", SIGNED_IN(200)),
      r("GET /api/user/invites", SIGNED_IN(200)),
      r("GET /api/user/passkeys", SIGNED_IN(200)),
      r("GET /api/user/passkeys/{myPasskey}", SIGNED_IN(200)),
      r("GET /api/avatars/{avatarSeed}.svg", ANYONE(200)),
      r("GET /api/organizations", SIGNED_IN(200)),
      r("GET /api/organizations/{org}/members", ANY_MEMBER(200)),
      r("GET /api/organizations/{org}/invites", ANY_MEMBER(200)),
      r("GET /api/organizations/{org}/audit", ADMIN_UP(200)),
      r("GET /api/projects", SIGNED_IN(200)),
      r("GET /api/projects?organizationId={org}", ANY_MEMBER(200)),
      r("GET /api/projects/{project}/key", OWNER_ONLY(200)),
      r("GET /api/projects/{project}", ANY_MEMBER(200)),
      r("GET /api/sessions", SIGNED_IN(200)),
      r("GET /api/sessions/summary", SIGNED_IN(200)),
      r("GET /api/insights", SIGNED_IN(200)),
      r("GET /api/heatmaps?projectId={project}&path=/", ANY_MEMBER(200)),
      r("GET /api/heatmaps/pages?projectId={project}", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}/events", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}/network", ANY_MEMBER(200)),
      // The world records no request: a member is told the request is not there (404).
      r("GET /api/sessions/{session}/network/{request}", ANY_MEMBER(404)),
      r("GET /api/sessions/{session}/markers", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}/shares", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}/comments", ANY_MEMBER(200)),
      r("GET /api/saved-searches", SIGNED_IN(200)),
      r("GET /api/saved-searches/{savedSearch}/open", ANY_MEMBER(200)),
      r("GET /api/alert-rules", SIGNED_IN(200)),
      r("GET /api/alert-rules/{alertRule}/deliveries", ANY_MEMBER(200)),
      r("GET /api/sessions/{session}/export?format=json", ANY_MEMBER(200)),
      r("GET /api/tracked-users", SIGNED_IN(200)),
      r("GET /api/tracked-users/summary", SIGNED_IN(200)),
      // Ids are a filter, like projectIds on a list: another organization's are left out of the
      // answer, not refused (the lists test of permission_matrix_test.ts holds that).
      r("GET /api/tracked-users/heartbeat?ids={otherTrackedUser}", SIGNED_IN(200)),
      r("GET /api/tracked-users/{trackedUser}", ANY_MEMBER(200)),
      r("GET /api/tracked-users/{trackedUser}/status", ANY_MEMBER(200)),
      r("GET /api/tracked-users/{trackedUser}/timeline", ANY_MEMBER(200)),
      r("GET /api/tracked-users/{trackedUser}/sessions", ANY_MEMBER(200)),
      r("GET /api/tracked-users/{trackedUser}/activity", ANY_MEMBER(200)),
      r("GET /api/tracked-users/{trackedUser}/export", ADMIN_UP(200)),
    ],
  },
  {
    name: "writes (each on its own target)",
    rows: [
      r("PATCH /api/user", SIGNED_IN(200), { body: { name: "Renamed" } }),
      r("POST /api/user/avatar", SIGNED_IN(200)),
      r("PATCH /api/user/passkeys/{myPasskey}", SIGNED_IN(200), { body: { name: "Desk" } }),
      r("DELETE /api/user/passkeys/{myPasskeyGone}", SIGNED_IN(204)),
      r("DELETE /api/user/accounts/{provider}", SIGNED_IN(204)),
      r("POST /api/auth/passkeys/register/options", SIGNED_IN(200)),
      r("POST /api/user/invites/{myInviteAccept}/accept", SIGNED_IN(200)),
      r("POST /api/user/invites/{myInviteDecline}/decline", SIGNED_IN(200)),
      r("POST /api/organizations", SIGNED_IN(201), { body: { name: "Side project" } }),
      r("PATCH /api/organizations/active", ANY_MEMBER(204), { body: { organizationId: "{org}" } }),
      r("PATCH /api/organizations/{org}", ADMIN_UP(200), { body: { name: "Org Uno" } }),
      r("PATCH /api/organizations/{org}/members/{memberSpare}", OWNER_ONLY(200), {
        body: { role: "ADMIN" },
      }),
      r("DELETE /api/organizations/{org}/members/{memberGone}", OWNER_ONLY(204)),
      r("POST /api/organizations/{org}/invites", ADMIN_UP(201), {
        body: { email: "{newEmail}", role: "VIEWER" },
      }),
      r("POST /api/organizations/{org}/invites", ADMIN_UP(201), {
        body: { email: "{newEmail2}", role: "ADMIN" },
      }),
      r("PATCH /api/organizations/{org}/invites/{inviteRefresh}", ADMIN_UP(200), {
        body: { role: "ADMIN" },
      }),
      r("DELETE /api/organizations/{org}/invites/{inviteRevoke}", ADMIN_UP(204)),
      r("POST /api/projects", OWNER_ONLY(201), { body: { name: "New", organizationId: "{org}" } }),
      r("PATCH /api/projects/{project}", ADMIN_UP(200), { body: { name: "Main 2" } }),
      r("PATCH /api/projects/{project}", ADMIN_UP(200), { body: { retentionDays: 30 } }),
      r("PATCH /api/projects/{project}", ADMIN_UP(200), {
        body: { recording: { sampleRate: 0.5, triggers: ["error"] } },
      }),
      r("PATCH /api/projects/{project}/display-name-trait-key", ADMIN_UP(200), {
        body: { traitKey: "email" },
      }),
      r("POST /api/projects/{project}/regenerate-key", OWNER_ONLY(200)),
      r("DELETE /api/projects/{projectDoomed}", OWNER_ONLY(204), {
        body: { confirmation: "delete project" },
      }),
      r("DELETE /api/sessions/{sessionDoomed}", ADMIN_UP(204)),
      r("POST /api/sessions/{session}/pin", ADMIN_UP(200)),
      r("DELETE /api/sessions/{session}/pin", ADMIN_UP(200)),
      r("POST /api/sessions/{session}/shares", ADMIN_UP(201), { body: { expiresInHours: 1 } }),
      r("DELETE /api/shares/{share}", ADMIN_UP(204)),
      // Every member comments; the author (the OWNER here) or an ADMIN+ deletes.
      r("POST /api/sessions/{session}/comments", ANY_MEMBER(201), {
        body: { offsetMs: 0, text: "Here" },
      }),
      r("DELETE /api/comments/{comment}", ADMIN_UP(204)),
      // Every member saves a search; its author (the OWNER here) or an ADMIN+ changes or deletes.
      r("POST /api/saved-searches", SIGNED_IN(201), {
        body: { name: "Rage", query: "signals=rage_click" },
      }),
      r("PATCH /api/saved-searches/{savedSearch}", ADMIN_UP(200), { body: { name: "Renamed" } }),
      r("DELETE /api/saved-searches/{savedSearch}", ADMIN_UP(204)),
      // Alert rules: ADMIN+ makes, changes, tests and deletes them (every member reads them).
      r("POST /api/alert-rules", ADMIN_UP(201), {
        body: {
          projectId: "{project}",
          name: "Rage",
          signal: "rage_click",
          groupBy: "page",
          threshold: 5,
          windowMinutes: 10,
          cooldownMinutes: 60,
          deliver: { email: ["team@acme.test"] },
        },
      }),
      r("PATCH /api/alert-rules/{alertRule}", ADMIN_UP(200), { body: { threshold: 6 } }),
      r("POST /api/alert-rules/{alertRule}/test", ADMIN_UP(200)),
      r("POST /api/alert-rules/{alertRule}/secret", ADMIN_UP(200)),
      r("DELETE /api/alert-rules/{alertRule}", ADMIN_UP(204)),
      r("PATCH /api/tracked-users/{trackedUser}/display-name", ADMIN_UP(200), {
        body: { customName: "Grace" },
      }),
      r("DELETE /api/tracked-users/{trackedUserDoomed}", ADMIN_UP(204)),
      // Last of the section: the user and their sessions go.
      r("POST /api/tracked-users/{trackedUser}/erase", ADMIN_UP(200)),
    ],
  },
  // The other way round: organization 2's resources, out of reach of organization 1's members
  // (404, never 403, even where their role would be too low anyway).
  {
    name: "organization 2's resources",
    rows: [
      r("GET /api/organizations/{otherOrg}/members", ELSEWHERE(200)),
      r("PATCH /api/organizations/{otherOrg}", ELSEWHERE(200), { body: { name: "Two" } }),
      r("GET /api/projects/{otherProject}/key", ELSEWHERE(200)),
      r("GET /api/projects/{otherProject}", ELSEWHERE(200)),
      r("PATCH /api/projects/{otherProject}", ELSEWHERE(200), { body: { name: "Theirs" } }),
      r("GET /api/sessions/{otherSession}", ELSEWHERE(200)),
      r("PATCH /api/tracked-users/{otherTrackedUser}/display-name", ELSEWHERE(200), {
        body: { customName: "Ada" },
      }),
      r("DELETE /api/sessions/{otherSession}", ELSEWHERE(204)),
      r("DELETE /api/tracked-users/{otherTrackedUser}", ELSEWHERE(204)),
    ],
  },
  // Each of these ends the caller's access to organization 1 (or the account): a world apiece.
  {
    name: "leaving",
    rows: [r("DELETE /api/organizations/{org}/members/{memberSelf}", ANY_MEMBER(204))],
  },
  {
    name: "deleting the organization",
    rows: [
      r("DELETE /api/organizations/{org}", OWNER_ONLY(204), {
        body: { confirmation: "delete organization" },
      }),
    ],
  },
  {
    name: "deleting the account",
    rows: [r("DELETE /api/user", SIGNED_IN(204), { body: { confirmation: "delete my account" } })],
  },
  {
    name: "signing out",
    rows: [
      r("POST /api/auth/signout", ANYONE(204)),
      r("POST /api/auth/signout", ANYONE(204), { body: { everywhere: true } }),
    ],
  },
  // The cron endpoint takes the bearer secret, never a cookie, whoever holds it.
  {
    name: "cron",
    rows: [
      r("GET /api/cron/daily-cleanup", [401, 401, 401, 401, 401]),
      r("GET /api/cron/daily-cleanup", ANYONE(200), { bearer: true }),
      r("POST /api/cron/alerts", [401, 401, 401, 401, 401]),
      r("POST /api/cron/alerts", ANYONE(200), { bearer: true }),
    ],
  },
];

/**
 * /api routes deliberately outside the matrix: public, key-authenticated (ingest) or steps of a
 * sign-in ceremony, each covered by its own tests.
 */
export const OUTSIDE_MATRIX = new Set([
  "GET /api/health",
  "GET /api/openapi.json",
  "POST /api/ingest",
  "POST /api/sessions/cancel",
  "GET /api/sdk/config",
  "GET /api/auth/methods",
  "POST /api/auth/otp/send",
  "POST /api/auth/otp/verify",
  "GET /api/auth/signin/*",
  "GET /api/auth/callback/*",
  "POST /api/auth/passkeys/register/verify",
  "POST /api/auth/passkeys/authenticate/options",
  "POST /api/auth/passkeys/authenticate/verify",
]);

/** "METHOD /path" with every parameter segment (`{x}`, `:x`, `{x}.svg`) as `*`, no query. */
export function routeShape(route: string): string {
  const [method, path] = route.split(" ");
  const segments = path.split("?")[0].split("/")
    .map((s) => s.startsWith(":") || s.includes("{") ? "*" : s);
  return `${method} ${segments.join("/")}`;
}
