// /heatmaps in Chromium: a shop page recorded (synthetic rrweb events of a styled page, ingested
// and derived as the background step does) is drawn by the server under the heat layer; every kind
// renders at 1280 and 1440 wide (screenshots in .scratch/e2e/, looked at), the top elements rank
// the clicks, and a row opens /sessions listing exactly the sessions that clicked it.
import assert from "node:assert/strict";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";

const T = Date.now() - 10 * 60_000;
let nextId = 100;
const el = (tag: string, attributes: Record<string, string>, ...children: unknown[]) => ({
  type: 2,
  tagName: tag,
  attributes,
  childNodes: children,
  id: nextId++,
});
const text = (value: string) => ({ type: 3, textContent: value, id: nextId++ });

const button = (id: string, left: string, top: number, label: string, color: string) =>
  el("button", {
    id,
    style: `position:absolute;left:${left};top:${top}px;padding:10px 18px;border:0;` +
      `border-radius:6px;background:${color};color:#fff;font:600 15px sans-serif`,
  }, text(label));

/** A product page: a header, a picture, a price and three buttons, 1,800 px tall. */
function shopSnapshot() {
  nextId = 100;
  const body = el(
    "body",
    { style: "margin:0;font-family:sans-serif;background:#f6f7f9;height:1800px;position:relative" },
    el(
      "header",
      {
        style:
          "height:64px;background:#1f2937;color:#fff;display:flex;align-items:center;padding:0 24px",
      },
      el("strong", {}, text("Shop")),
    ),
    el("div", {
      style:
        "position:absolute;left:5%;top:100px;width:40%;height:320px;background:#cbd5e1;border-radius:8px",
    }),
    el("h1", { style: "position:absolute;left:52%;top:90px;margin:0" }, text("Walnut desk")),
    el("p", { style: "position:absolute;left:52%;top:150px;font-size:22px" }, text("€ 480")),
    button("buy", "52%", 220, "Add to cart", "#2563eb"),
    button("share", "52%", 290, "Share", "#64748b"),
    button("coupon", "52%", 360, "Apply coupon", "#9333ea"),
    el(
      "section",
      { style: "position:absolute;left:5%;top:480px;width:90%" },
      el("h2", {}, text("Reviews")),
      el("p", {}, text("Sturdy and beautiful.")),
    ),
  );
  return { type: 0, id: 1, childNodes: [el("html", {}, el("head", {}), body)] };
}

const ids = () => {
  const s = shopSnapshot();
  const find = (
    node: { id: number; attributes?: Record<string, string>; childNodes?: unknown[] },
    want: string,
  ): number | null => {
    if (node.attributes?.id === want) return node.id;
    for (const child of (node.childNodes ?? []) as typeof node[]) {
      const found = find(child, want);
      if (found) return found;
    }
    return null;
  };
  return {
    snapshot: s,
    buy: find(s, "buy")!,
    share: find(s, "share")!,
    coupon: find(s, "coupon")!,
  };
};

Deno.test("heatmaps page: each kind drawn over the page at 1280 and 1440; a row opens its sessions", async () => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const viewer = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: viewer.organizationId, name: "Shop" });
  const { snapshot, buy, share, coupon } = ids();
  const couponers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const sessionId = crypto.randomUUID();
    const events: unknown[] = [
      {
        type: 4,
        data: { href: "https://shop.test/products/42", width: 1440, height: 900 },
        timestamp: T,
      },
      { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: T + 1 },
      { type: 3, data: { source: 2, type: 2, id: buy, x: 800 + i, y: 240 }, timestamp: T + 100 },
      { type: 3, data: { source: 2, type: 2, id: share, x: 790, y: 310 }, timestamp: T + 2_000 },
    ];
    if (i < 2) {
      couponers.push(sessionId);
      for (let k = 0; k < 3; k++) {
        events.push({
          type: 3,
          data: { source: 2, type: 2, id: coupon, x: 820, y: 380 },
          timestamp: T + 4_000 + k * 100,
        });
      }
      events.push({
        type: 5,
        data: {
          tag: "service:rage_click",
          payload: {
            selector: "button#coupon",
            text: "",
            x: 820,
            y: 380,
            at: T + 4_000,
            clicks: 3,
          },
        },
        timestamp: T + 5_200,
      });
    }
    events.push({ type: 3, data: { source: 3, id: 1, x: 0, y: 200 * i }, timestamp: T + 6_000 });
    const res = await postIngest(server.t.app, { sessionId, events, metadata: METADATA }, {
      key: project.key,
    });
    assert.equal(res.status, 204);
  }
  await deriveHeatmaps(server.t.deps, new Date(Date.now() + 3_600_000));

  const browser = await launchChromium();
  try {
    const { context, page, errors } = await signedInPage(browser, server.url, viewer.cookie);
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (
        const [kind, mode] of [["click", "coordinate"], ["click", "element"], [
          "rage",
          "coordinate",
        ], ["scroll", ""]]
      ) {
        const query = `kind=${kind}${mode ? `&mode=${mode}` : ""}`;
        const res = await page.goto(`${server.url}/heatmaps?${query}`);
        assert.equal(res?.status(), 200, query);
        await page.waitForSelector(".heatmap-overlay canvas");
        await page.waitForFunction(() =>
          [...document.querySelectorAll("fresh-island")].every((i) =>
            i.getAttribute("data-hydrated") === "true"
          )
        ).catch(() => {});
        assert.equal(
          await page.locator(".heatmap-page iframe").count(),
          1,
          "the server drew the page",
        );
        await page.screenshot({
          path: await artifactPath(`heatmaps-${kind}-${mode || "depth"}-${width}.png`),
          fullPage: true,
        });
      }
    }
    await page.goto(`${server.url}/heatmaps?kind=click&mode=element`);
    const rows = page.locator('[data-testid="heatmap-elements"] tbody tr');
    // Six clicks each: ties rank by selector.
    assert.deepEqual(await rows.locator("code").allTextContents(), [
      "button#buy",
      "button#coupon",
      "button#share",
    ]);
    await rows.nth(1).locator("a").click();
    await page.waitForURL(/\/sessions\?/);
    assert.match(page.url(), /clicked=button%23coupon/);
    // The list is an island: its rows once hydrated, exactly the two that clicked the coupon.
    const listed = page.getByTestId("sessions-table").locator("tbody tr[data-session]");
    await listed.first().waitFor();
    const ids = await listed.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session")));
    const expected = await db.selectFrom("sessions").select("id")
      .where("external_id", "in", couponers).execute();
    assert.deepEqual(ids.sort(), expected.map((s) => s.id).sort());
    await page.screenshot({ path: await artifactPath("heatmaps-clicked-sessions.png") });

    // A replay's facts link to its page's heatmap.
    await page.goto(`${server.url}/replays/${expected[0].id}`);
    const link = page.locator(".session-facts a", { hasText: "/products/:id" });
    await page.screenshot({ path: await artifactPath("heatmaps-replay-link.png") });
    await link.click();
    await page.waitForURL(/\/heatmaps\?/);
    assert.equal(new URL(page.url()).searchParams.get("path"), "/products/:id");
    assert.equal(new URL(page.url()).searchParams.get("projectId"), project.id);
    await page.waitForSelector(".heatmap-overlay canvas");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});
