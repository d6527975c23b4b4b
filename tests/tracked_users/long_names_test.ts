// A visitor's name is text the recorded site chose: a 100,000-character name or 200 traits are
// bounded at ingest (each text 1,024 characters with a cut mark, 100 traits), shown on one line cut
// with an ellipsis (the whole on hover), and bidirectional controls never reach a page.
import assert from "node:assert/strict";
import { CUT_MARK, MARKER_TEXT_CHARS, MAX_TRAITS } from "@/core/ingest/limits.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const RLO = "\u202E";

Deno.test("tracked users: a 100,000-character name and 200 traits are stored bounded; pages show them cut and without bidi controls", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const name = `Eve ${RLO}gnp.exe ` + "n".repeat(100_000);
  const traits: Record<string, unknown> = { name };
  for (let i = 0; i < 199; i++) traits[`t${i}`] = i;
  const res = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3, Date.now() - 60_000),
    metadata: { ...METADATA, userIdentity: { userId: "eve", traits } },
  }, { key: project.key });
  assert.equal(res.status, 204, await res.text());

  const user = await t.db.kysely.selectFrom("tracked_users").select("traits")
    .executeTakeFirstOrThrow();
  const stored = user.traits as Record<string, unknown>;
  assert.equal(Object.keys(stored).length, MAX_TRAITS);
  assert.equal((stored.name as string).length, MARKER_TEXT_CHARS);
  assert.ok((stored.name as string).endsWith(CUT_MARK));
  assert.ok("t98" in stored && !("t99" in stored), "the first 100 traits in the order sent");

  for (const path of ["/sessions?range=7d", "/users"]) {
    // What the page shows: its markup, without the islands' props (JSON data, not text).
    const html = (await (await page(t, path, { cookie: owner.cookie })).text())
      .replace(/<script[^>]*>[^]*?<\/script>/g, "");
    assert.ok(!html.includes(RLO), `${path}: no right-to-left override`);
    const shown = html.match(/<bdi class="visitor-text" title="([^"]*)"\s*>([^<]*)<\/bdi>/);
    assert.ok(shown, `${path}: the name in a visitor-text element`);
    assert.ok(shown[2].startsWith("Eve gnp.exe n"), shown[2].slice(0, 20));
    assert.equal(shown[1], shown[2], "the whole name on hover");
    assert.ok(shown[2].length <= MARKER_TEXT_CHARS);
  }
});
