// A project's settings page says what a 0 % sample rate records: only triggered sessions, and
// nothing at all with no trigger chosen.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

Deno.test("settings page: a 0 % sample rate warns what will be recorded; above it says nothing", async () => {
  await using t = await createPagesApp();
  const admin = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(t.db.kysely, { organizationId: admin.organizationId });
  const shown = async (rate: number, triggers: string[]) => {
    await t.db.kysely.updateTable("projects")
      .set({ recording_sample_rate: rate, recording_triggers: triggers })
      .where("id", "=", project.id).execute();
    const res = await page(t, `/projects/${project.id}/settings`, { cookie: admin.cookie });
    assert.equal(res.status, 200);
    const html = await res.text();
    return html.match(/data-testid="sample-warning">([^<]*)</)?.[1] ?? null;
  };
  assert.equal(
    await shown(0, []),
    "At 0 % and with no trigger chosen below, nothing will be recorded.",
  );
  assert.equal(
    await shown(0, ["error"]),
    "At 0 %, only sessions that meet a trigger below are recorded.",
  );
  assert.equal(await shown(0.0001, []), null);
  assert.equal(await shown(1, []), null);
});
