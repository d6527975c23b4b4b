// Compile-time half of the OpenAPI drift check: each wire type core/ returns must fit the
// documented response schema, so `deno check` (and so this test) fails as soon as they part.
import type { z } from "zod";
import type { avatarAnswer, passkey, userProfile } from "../api/user_schema.ts";
import type { invite, sentInvite, userInvite } from "../api/invites_schema.ts";
import type { membership, organization } from "../api/organizations_schema.ts";
import type { project, projectKey } from "../api/projects_schema.ts";
import type { cleanupResult } from "../api/service_schema.ts";
import type * as S from "../api/sessions_schema.ts";
import type * as T from "../api/tracked_users_schema.ts";
import type { CleanupResult } from "../core/cleanup.ts";
import type { InviteView, SentInviteView } from "../core/invites.ts";
import type { MembershipView } from "../core/members.ts";
import type { OrganizationView } from "../core/organizations.ts";
import type { Passkey } from "../core/passkeys.ts";
import type { ProjectView, revealProjectKey } from "../core/projects.ts";
import type { sessionDetail, sessionEvents } from "../core/session_detail.ts";
import type { sessionList, SessionSummary } from "../core/session_list.ts";
import type { trackedUserActivity } from "../core/tracked_user_activity.ts";
import type { TrackedUserDetail, trackedUserStatus } from "../core/tracked_user_detail.ts";
import type { trackedUserList, TrackedUserSummary } from "../core/tracked_user_list.ts";
import type { trackedUserTimeline } from "../core/tracked_user_timeline.ts";
import type { UserProfile } from "../core/user.ts";
import type { UserInviteView } from "../core/user_invites.ts";

/** Compiles only when core's type `Core` is assignable to the schema's output. */
type Fits<Core extends z.output<Schema>, Schema extends z.ZodType> = [Core, Schema];
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Batch<F extends (...args: never[]) => unknown> = Answer<F> extends AsyncIterable<infer B> ? B
  : never;

export type Checked = [
  Fits<Answer<typeof sessionList>, typeof S.sessionListPage>,
  Fits<SessionSummary, typeof S.sessionSummary>,
  Fits<Answer<typeof sessionDetail>, typeof S.sessionDetail>,
  Fits<Batch<typeof sessionEvents>, typeof S.eventBatch>,
  Fits<Answer<typeof trackedUserList>, typeof T.trackedUserPage>,
  Fits<TrackedUserSummary, typeof T.trackedUserSummary>,
  Fits<TrackedUserDetail, typeof T.trackedUserDetail>,
  Fits<Answer<typeof trackedUserStatus>, typeof T.trackedUserStatus>,
  Fits<Answer<typeof trackedUserTimeline>, typeof T.trackedUserTimeline>,
  Fits<Answer<typeof trackedUserActivity>, typeof T.trackedUserActivity>,
  Fits<ProjectView, typeof project>,
  Fits<Answer<typeof revealProjectKey>, typeof projectKey>,
  Fits<OrganizationView, typeof organization>,
  Fits<MembershipView, typeof membership>,
  Fits<InviteView, typeof invite>,
  Fits<SentInviteView, typeof sentInvite>,
  Fits<UserInviteView, typeof userInvite>,
  Fits<UserProfile, typeof userProfile>,
  Fits<Passkey, typeof passkey>,
  Fits<{ image: string }, typeof avatarAnswer>,
  Fits<CleanupResult, typeof cleanupResult>,
  // Not here: sign-in methods, whose provider id core types as string; the schema names the two
  // providers and tests/openapi_test.ts checks the answer at run time.
];

Deno.test("openapi: core's wire types fit the documented response schemas (checked at compile time)", () => {});
