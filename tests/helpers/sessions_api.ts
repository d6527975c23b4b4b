// Shared set-up of the sessions API tests: a signed-in member with projects in their active
// organization, plus a second organization whose data must never show through.
import type { Role } from "@/db/schema.ts";
import type { TestApp } from "./app.ts";
import { call, signedInUser } from "./auth.ts";
import { insertProject } from "./factories.ts";

export async function sessionsWorld(t: TestApp, role: Role = "OWNER") {
  const db = t.db.kysely;
  const me = await signedInUser(t, { role });
  const alpha = await insertProject(db, { organizationId: me.organizationId, name: "Alpha" });
  const beta = await insertProject(db, { organizationId: me.organizationId, name: "Beta" });
  const foreign = await insertProject(db, { name: "Elsewhere" });
  const get = async (path: string) => {
    const res = await call(t.app, "GET", path, { cookie: me.cookie });
    return { res, body: res.status === 204 ? null : await res.json() };
  };
  return { db, me, alpha, beta, foreign, get };
}
