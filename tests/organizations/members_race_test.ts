// core/organizations/members.ts under a race: an owner demoted or removed while their role change or removal is
// in flight must be refused. The interleaving is forced, not hoped for: the caller's database
// runs the other owner's request just before the caller's transaction (and its roster lock) starts.
import assert from "node:assert/strict";
import type { AppDeps } from "@/core/deps.ts";
import { AppError } from "@/core/errors.ts";
import { changeMemberRole, removeMember } from "@/core/organizations/members.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { resolveViewer } from "@/http/session.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";

/** Deps whose `db.kysely.transaction()` first awaits `meanwhile` (the concurrent request). */
function racedDeps(deps: AppDeps, meanwhile: () => Promise<void>): AppDeps {
  const kysely = new Proxy(deps.db.kysely, {
    get(target, prop) {
      if (prop !== "transaction") {
        const value = Reflect.get(target, prop, target);
        // Kysely's methods use private fields: call them on the real instance.
        return typeof value === "function" ? value.bind(target) : value;
      }
      return () => {
        const builder = target.transaction();
        return {
          execute: async <T>(fn: Parameters<typeof builder.execute<T>>[0]) => {
            await meanwhile();
            return await builder.execute(fn);
          },
        };
      };
    },
  });
  return { ...deps, db: { ...deps.db, kysely } };
}

/** Two owners and a viewer; `viewerOf` is the first owner as core/ sees them, before the race. */
async function twoOwners(t: TestApp) {
  const a = await signedInUser(t);
  const orgId = a.organizationId;
  const b = await signedInUser(t, { role: "OWNER", organizationId: orgId });
  const v = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const memberId = async (userId: string) =>
    (await t.db.kysely.selectFrom("memberships").select("id")
      .where("organization_id", "=", orgId).where("user_id", "=", userId)
      .executeTakeFirstOrThrow()).id;
  const viewerA = (await resolveViewer(t.deps, a.cookie)) as Viewer;
  assert.equal(viewerA.role, "OWNER");
  return { orgId, a, b, viewerA, aId: await memberId(a.user.id), vId: await memberId(v.user.id) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e) => e);
  assert.ok(error instanceof AppError, `expected a refusal, got ${error}`);
  return error.kind;
}

const roleOf = async (t: TestApp, membershipId: string) =>
  (await t.db.kysely.selectFrom("memberships").select("role").where("id", "=", membershipId)
    .executeTakeFirst())?.role ?? null;

Deno.test("members race: an owner demoted while their role change is in flight is refused (403)", async () => {
  await using t = await createTestApp();
  const { orgId, b, viewerA, aId, vId } = await twoOwners(t);
  const demoteA = async () => {
    const res = await call(t.app, "PATCH", `/api/organizations/${orgId}/members/${aId}`, {
      cookie: b.cookie,
      body: { role: "VIEWER" },
    });
    assert.equal(res.status, 200);
  };
  const deps = racedDeps(t.deps, demoteA);
  const input = { organizationId: orgId, memberId: vId, role: "OWNER" as const };
  assert.equal(await refusal(changeMemberRole(deps, viewerA, input)), "forbidden");
  assert.equal(await roleOf(t, vId), "VIEWER");
});

Deno.test("members race: an owner demoted while removing a member is refused (403)", async () => {
  await using t = await createTestApp();
  const { orgId, b, viewerA, aId, vId } = await twoOwners(t);
  const demoteA = async () => {
    const res = await call(t.app, "PATCH", `/api/organizations/${orgId}/members/${aId}`, {
      cookie: b.cookie,
      body: { role: "ADMIN" },
    });
    assert.equal(res.status, 200);
  };
  const deps = racedDeps(t.deps, demoteA);
  const input = { organizationId: orgId, memberId: vId };
  assert.equal(await refusal(removeMember(deps, viewerA, input)), "forbidden");
  assert.equal(await roleOf(t, vId), "VIEWER", "the member stays");
});

Deno.test("members race: an owner removed while their request is in flight gets 404", async () => {
  await using t = await createTestApp();
  const { orgId, b, viewerA, aId, vId } = await twoOwners(t);
  const removeA = async () => {
    const res = await call(t.app, "DELETE", `/api/organizations/${orgId}/members/${aId}`, {
      cookie: b.cookie,
    });
    assert.equal(res.status, 204);
  };
  const deps = racedDeps(t.deps, removeA);
  const input = { organizationId: orgId, memberId: vId };
  assert.equal(await refusal(removeMember(deps, viewerA, input)), "not_found");
  assert.equal(await roleOf(t, vId), "VIEWER", "the member stays");
});
