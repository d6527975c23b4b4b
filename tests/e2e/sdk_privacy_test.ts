// Browser test: nothing typed into masked fields or shown in masked/blocked elements leaves the
// page: every byte the service stored and every request body the page sent is searched. The
// batches are stored as sent (docs/decisions.md "Ingest"): each stored batch is checked to be the
// events' gzip member of a body the page sent, so the rules are held on that encoding.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { type Harness, sdkPage, startHarness, waitFor, withPh } from "./sdk_harness.ts";
import { storedBatches } from "./sdk_readback.ts";
import type { Page } from "playwright-core";

const FORM = `
<form onsubmit="return false">
  <label>Password <input type="password" id="pw"></label>
  <label>Email <input type="email" id="email"></label>
  <label>Name <input type="text" id="plain" value=""></label>
  <label>Notes <textarea id="ta"></textarea></label>
  <label>Plan <select id="sel"><option value="">choose</option><option value="opt-a">Alpha</option>
    <option value="opt-b">Bravo</option></select></label>
</form>
<div data-service-mask id="masked"><p>MaskStaticSecret-101</p><div contenteditable="true" id="ce"></div></div>
<div data-service-block id="blocked" style="width:240px;height:60px">
  <p>BlockStaticSecret-102</p><input id="blockedInput">
</div>
<input type="hidden" id="csrf" name="csrf" value="HiddenCsrfSecret-91">
<div contenteditable="true" id="editor" style="min-height:20px"></div>
<p id="public">Public text stays visible</p>`;

const TYPED: [string, string][] = [
  ["#pw", "PwSecret-7f3a91"],
  ["#email", "mail-secret-5521@example.test"],
  ["#plain", "PlainSecret-22x"],
  ["#ta", "TextareaSecret-33y"],
  ["#ce", "MaskTypedSecret-44z"],
  ["#blockedInput", "BlockTypedSecret-55w"],
  // A rich-text region outside any mask attribute: an input to the visitor, so masked too.
  ["#editor", "EditorTypedSecret-66e"],
];
const STATIC = ["MaskStaticSecret-101", "BlockStaticSecret-102", "HiddenCsrfSecret-91"];
const MUTATED = [
  "MaskMutationSecret-66",
  "BlockMutationSecret-77",
  "AttrValueSecret-88",
  "HiddenMutationSecret-99",
];

const MEDIA = `
<img id="img" src="/media/ImgSecret-A1.png" alt="AltSecret-A2" width="40" height="30">
<video id="video" poster="/media/PosterSecret-B1.jpg" width="80" height="40">
  <source src="/media/VideoSecret-B2.mp4" type="video/mp4"></video>
<audio id="audio" src="/media/AudioSecret-C1.mp3" controls></audio>
<picture><source srcset="/media/PictureSecret-D1.webp"><img src="/media/PictureSecret-D2.png"></picture>`;
const MEDIA_SECRETS = [
  "ImgSecret-A1",
  "AltSecret-A2",
  "PosterSecret-B1",
  "VideoSecret-B2",
  "AudioSecret-C1",
  "PictureSecret-D1",
  "PictureSecret-D2",
  "LateImgSecret-E1",
];

/** Everything the service stored for the project (batches decompressed) plus every request body. */
async function everything(h: Harness, projectId: string, sessionId: string): Promise<string> {
  const db = h.server.db;
  const batches = await storedBatches(db, projectId, sessionId);
  const sessions = await db.selectFrom("sessions").selectAll().where("project_id", "=", projectId)
    .execute();
  const markers = await db.selectFrom("markers").selectAll().execute();
  const users = await db.selectFrom("tracked_users").selectAll().execute();
  const bodies = h.seen.map((r) => r.text);
  return [
    ...batches.map((b) => b.json),
    JSON.stringify(sessions),
    JSON.stringify(markers),
    JSON.stringify(users),
    ...bodies,
  ].join("\n");
}

async function recordAndFlush(page: Page, h: Harness, projectId: string): Promise<string> {
  const sessionId = await withPh(page, (ph) => ph.sessionId!);
  await withPh(page, (ph) => ph.flush());
  await waitFor(
    async () => (await storedBatches(h.server.db, projectId, sessionId)).length > 0,
    10_000,
    "stored batches",
  );
  await assertStoredAsSent(h, projectId, sessionId);
  return sessionId;
}

/**
 * A stored batch of the session is bytes the page sent, the events' gzip member of a request body
 * (a body under 1 KiB goes uncompressed, and its batch is gzipped by the service).
 */
async function assertStoredAsSent(h: Harness, projectId: string, sessionId: string) {
  const rows = await h.server.db.selectFrom("event_batches").select("data")
    .where("project_id", "=", projectId).where("session_external_id", "=", sessionId).execute();
  const sent = h.seen.filter((r) => r.path === "/api/ingest").map((r) => Buffer.from(r.raw));
  const asSent = rows.filter(({ data }) => sent.some((raw) => raw.includes(Buffer.from(data!))));
  assert.ok(asSent.length > 0, "a batch stored as sent");
}

Deno.test("sdk e2e: privacy", async (t) => {
  await using h = await startHarness();

  await t.step("typed and displayed secrets never leave the page", async () => {
    const project = await h.server.createProject();
    h.page("/form", sdkPage(h, project.key, { flushInterval: 600_000 }, FORM));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/form`);
    for (const [selector, secret] of TYPED) {
      await page.click(selector);
      await page.keyboard.type(secret, { delay: 2 });
    }
    await page.selectOption("#sel", "opt-b");
    await page.evaluate(() => {
      const p = document.createElement("p");
      p.textContent = "MaskMutationSecret-66";
      document.getElementById("masked")!.appendChild(p);
      document.querySelector("#blocked p")!.textContent = "BlockMutationSecret-77";
      document.getElementById("plain")!.setAttribute("value", "AttrValueSecret-88");
      (document.getElementById("csrf") as HTMLInputElement).value = "HiddenMutationSecret-99";
      document.getElementById("csrf")!.setAttribute("value", "HiddenMutationSecret-99");
    });
    // The secrets really are on the page.
    assert.equal(await page.inputValue("#pw"), "PwSecret-7f3a91");
    assert.equal(await page.inputValue("#sel"), "opt-b");
    assert.match(await page.textContent("#masked") ?? "", /MaskTypedSecret-44z/);
    assert.match(await page.textContent("#editor") ?? "", /EditorTypedSecret-66e/);
    assert.equal(await page.inputValue("#csrf"), "HiddenMutationSecret-99");
    // The page's own code quotes typed values in a console error and an uncaught error.
    await page.evaluate(() => {
      const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
      console.error("lookup failed for", value("email"), value("blockedInput"));
      setTimeout(() => {
        throw new Error(`bad name ${value("plain")} in ${value("ta")}`);
      });
    });
    await page.waitForTimeout(100);

    const sessionId = await recordAndFlush(page, h, project.id);
    const all = await everything(h, project.id, sessionId);
    for (const secret of [...TYPED.map(([, s]) => s), ...STATIC, ...MUTATED]) {
      assert.ok(!all.includes(secret), `"${secret}" leaked`);
    }
    // The select's chosen value never travels: no unmasked input event, no selected option.
    assert.ok(!all.includes('"text":"opt-b"'), "the select's value leaked");
    assert.ok(!/"selected":true/.test(all), "the selected option leaked");
    // The recording did happen: inputs arrive as asterisks, the mask subtree as asterisks too,
    // the blocked element as a placeholder, public text in clear.
    assert.ok(all.includes('"text":"' + "*".repeat("PwSecret-7f3a91".length) + '"'));
    assert.ok(all.includes("*".repeat("MaskStaticSecret-101".length)));
    assert.match(all, /"rr_width":"240px"/);
    assert.ok(all.includes("Public text stays visible"));
    // The errors were recorded, their quotes of typed values masked.
    assert.ok(all.includes("lookup failed for"), "the console error was recorded");
    assert.ok(all.includes("bad name " + "*".repeat("PlainSecret-22x".length)), "uncaught error");
  });

  await t.step("privacyBlockMedia replaces images, video and audio", async () => {
    const project = await h.server.createProject();
    const late = `setTimeout(() => { const i = document.createElement("img");
      i.src = "/media/LateImgSecret-E1.png"; document.body.appendChild(i); }, 50);`;
    h.page("/media-on", sdkPage(h, project.key, { privacyBlockMedia: true }, MEDIA, late));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/media-on`);
    await page.waitForSelector("img[src*=LateImgSecret]", { state: "attached" });
    await page.waitForTimeout(100);
    const sessionId = await recordAndFlush(page, h, project.id);
    const all = await everything(h, project.id, sessionId);
    for (const secret of MEDIA_SECRETS) assert.ok(!all.includes(secret), `"${secret}" leaked`);
    assert.match(all, /"tagName":"video","attributes":\{"rr_width"/);
  });

  await t.step("control: with privacyBlockMedia off the same media is recorded", async () => {
    const project = await h.server.createProject();
    h.page("/media-off", sdkPage(h, project.key, {}, MEDIA));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/media-off`);
    const sessionId = await recordAndFlush(page, h, project.id);
    const all = await everything(h, project.id, sessionId);
    assert.ok(all.includes("ImgSecret-A1") && all.includes("AudioSecret-C1"));
  });
});
