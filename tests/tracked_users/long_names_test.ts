// A visitor's name is text the recorded site chose: a 100,000-character name or 200 traits are
// bounded at ingest (each text 1,024 characters with a cut mark, 100 traits), shown on one line cut
// with an ellipsis (the whole on hover), and bidirectional controls never reach a page.
import assert from "node:assert/strict";
import { userIdentitySchema } from "@/core/ingest/schema.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

/** Every bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069). */
const BIDI_CONTROLS = [
  "\u061C",
  "\u200E",
  "\u200F",
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

/** `n` traits `t0`…, each its index. */
const traitsOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, i]));

Deno.test("tracked users: identify keeps 100 traits in the order sent, and texts of 1,024 characters, the longer cut with …", () => {
  const stored = (traits: Record<string, unknown>) =>
    userIdentitySchema.parse({ userId: "eve", traits }).traits;
  for (const [sent, kept] of [[99, 99], [100, 100], [101, 100]]) {
    assert.deepEqual(stored(traitsOf(sent)), traitsOf(kept), `${sent} traits`);
  }
  const text = "abcdefghij".repeat(103); // 1,030 characters
  assert.equal(stored({ name: text.slice(0, 1023) }).name, text.slice(0, 1023));
  assert.equal(stored({ name: text.slice(0, 1024) }).name, text.slice(0, 1024));
  assert.equal(stored({ name: text.slice(0, 1025) }).name, text.slice(0, 1023) + "…");
  assert.equal((stored({ name: text.slice(0, 1025) }).name as string).length, 1024);
});

Deno.test("tracked users: a 100,000-character name and 200 traits are stored bounded; pages show them cut and without bidi controls", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const name = `Eve ${BIDI_CONTROLS.join("")}gnp.exe ` + "n".repeat(100_000);
  const traits: Record<string, unknown> = { name, ...traitsOf(199) };
  const res = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3, Date.now() - 60_000),
    metadata: { ...METADATA, userIdentity: { userId: "eve", traits } },
  }, { key: project.key });
  assert.equal(res.status, 204, await res.text());

  const user = await t.db.kysely.selectFrom("tracked_users").select("traits")
    .executeTakeFirstOrThrow();
  const stored = user.traits as Record<string, unknown>;
  assert.equal(Object.keys(stored).length, 100);
  assert.equal((stored.name as string).length, 1024);
  assert.equal(stored.name, name.slice(0, 1023) + "…");
  assert.ok("t98" in stored && !("t99" in stored), "the first 100 traits in the order sent");

  for (const path of ["/sessions?range=7d", "/users"]) {
    // What the page shows: its markup, without the islands' props (JSON data, not text).
    const html = (await (await page(t, path, { cookie: owner.cookie })).text())
      .replace(/<script[^>]*>[^]*?<\/script>/g, "");
    for (const control of BIDI_CONTROLS) {
      assert.ok(!html.includes(control), `${path}: no U+${control.codePointAt(0)!.toString(16)}`);
    }
    const shown = html.match(/<bdi class="visitor-text" title="([^"]*)"\s*>([^<]*)<\/bdi>/);
    assert.ok(shown, `${path}: the name in a visitor-text element`);
    assert.ok(shown[2].startsWith("Eve gnp.exe n"), shown[2].slice(0, 20));
    assert.equal(shown[1], shown[2], "the whole name on hover");
    assert.ok(shown[2].length <= 1024);
  }
});
