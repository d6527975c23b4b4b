// An export of a recording the SDK masked at capture: a page's real text in a masked element, a
// chosen option of a select and typed text go through the SDK's privacy options (rrweb's masking),
// and neither export format, nor the HTML file's replay opened in Chromium, holds any of it.
import assert from "node:assert/strict";
import { startSession } from "@/http/session.ts";
import { decodeBatch } from "@/recording/decode.ts";
import { insertMembership, insertUser } from "@/tests/helpers/factories.ts";
import { sdkPage, startHarness, waitFor, withPh } from "./sdk_harness.ts";
import { storedBatches } from "./sdk_readback.ts";

const NAME = "Ada Quartermaine";
const LATER = "Card ends 4242";
const TYPED = "PlainSecret-Q7";
const PAGE = `<h1>Cart page</h1>
<p data-service-mask id="name">${NAME}</p>
<div data-service-mask id="later"></div>
<select id="country"><option value="no">Norway</option><option value="de" selected>Germany</option></select>
<input type="text" id="plain">`;
/** rrweb's mask of a text: each character but white space as an asterisk. */
const stars = (text: string) => text.replace(/\S/g, "*");

Deno.test("export e2e: text masked at capture is in neither format nor the HTML file's replay", async () => {
  await using h = await startHarness({ pages: true });
  const project = await h.server.createProject();
  const db = h.server.db;
  h.page("/cart", sdkPage(h, project.key, { flushInterval: 600_000 }, PAGE));
  const { page } = await h.context();
  await page.goto(`${h.pagesUrl}/cart`);
  await page.click("#plain");
  await page.keyboard.type(TYPED, { delay: 2 });
  await page.evaluate((text) => {
    document.getElementById("later")!.textContent = text;
    document.querySelector("h1")!.textContent = "Cart saved"; // public: stored in clear
  }, LATER);
  // The real text is on the page.
  assert.equal(await page.textContent("#name"), NAME);
  assert.equal(await page.textContent("#later"), LATER);
  assert.equal(await page.inputValue("#country"), "de");
  assert.equal(await page.inputValue("#plain"), TYPED);

  const externalId = await withPh(page, (ph) => ph.sessionId!);
  await withPh(page, (ph) => ph.flush());
  await waitFor(
    async () =>
      (await storedBatches(db, project.id, externalId)).some((b) => b.json.includes("Cart saved")),
    10_000,
    "the mutations stored",
  );
  const { id, organization_id } = await db.selectFrom("sessions")
    .select(["id", "organization_id"]).where("external_id", "=", externalId)
    .executeTakeFirstOrThrow();
  const user = await insertUser(db);
  await insertMembership(db, organization_id, user.id, "VIEWER");
  await db.updateTable("users").set({ active_organization_id: organization_id })
    .where("id", "=", user.id).execute();
  const cookie = (await startSession(h.server.deps, user.id)).split(";")[0];
  const exported = async (format: string) => {
    const res = await fetch(`${h.server.url}/api/sessions/${id}/export?format=${format}`, {
      headers: { cookie },
    });
    assert.equal(res.status, 200, format);
    return await res.text();
  };

  const json = await exported("json");
  const html = await exported("html");
  const batches = [...html.matchAll(/data-batch="[^"]*">([^<]*)<\/script>/g)].map((m) => m[1]);
  assert.ok(batches.length > 0);
  const htmlEvents = JSON.stringify(await Promise.all(batches.map((b) => decodeBatch(b))));
  for (const [what, text] of [["json", json], ["html", html], ["html's events", htmlEvents]]) {
    for (const secret of [NAME, LATER, TYPED]) {
      assert.ok(!text.includes(secret), `${what} holds "${secret}"`);
    }
    // The chosen option is never marked, nor its value sent as an input's text.
    assert.ok(!/"selected":true/.test(text), `${what} marks the chosen option`);
    assert.ok(!text.includes('"text":"de"'), `${what} holds the chosen value`);
  }
  // The recording did happen: the page in clear, the masked text and the typing as asterisks.
  for (const text of [json, htmlEvents]) {
    assert.ok(text.includes("Cart page"));
    for (const secret of [NAME, LATER, TYPED]) assert.ok(text.includes(stars(secret)), secret);
  }

  // The file opened from disk: the replay shows the masks, no real option as chosen.
  const dir = await Deno.makeTempDir({ prefix: "export-masking-" });
  try {
    await Deno.writeTextFile(`${dir}/replay.html`, html);
    const { page: viewer } = await h.context();
    await viewer.goto(`file://${dir}/replay.html`);
    await viewer.locator(".replay-player[data-ready='true']").waitFor();
    const frame = viewer.locator(".replay-root iframe");
    const state = () =>
      frame.evaluate((f: HTMLIFrameElement) => {
        const doc = f.contentDocument!;
        const select = doc.querySelector("select")!;
        return {
          text: (doc.body?.innerText ?? "").replace(/\s+/g, " ").trim(),
          shown: select.selectedOptions[0]?.label,
          options: [...select.options].map((o) => o.label),
          typed: doc.querySelector("input")!.value,
        };
      });
    await viewer.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("Cart page")
    );
    const first = await state();
    assert.ok(first.text.includes(stars(NAME)), first.text);
    assert.deepEqual([first.shown, first.options], ["*****", ["*****", "Norway", "Germany"]]);
    await viewer.getByRole("button", { name: "Play" }).click();
    await viewer.locator(".replay-player[data-ended='true']").waitFor();
    const last = await state();
    assert.ok(last.text.includes(stars(LATER)), last.text);
    assert.equal(last.typed, stars(TYPED));
    assert.equal(last.shown, "*****");
    for (const secret of [NAME, LATER, TYPED]) assert.ok(!last.text.includes(secret), secret);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
