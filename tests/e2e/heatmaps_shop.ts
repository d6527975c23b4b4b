// A styled shop page for the heatmaps page's browser tests: its rrweb snapshot (a header, a
// picture, a price and three buttons, 1,800 px tall) and visits of it ingested as the SDK sends
// them: six that click Add to cart and Share, two of which rage on Apply coupon, each scrolled
// 200 px further than the last; and, with `popup`, one more whose Claim button in a box added
// after the snapshot (so in no frame of the page) is clicked.
import assert from "node:assert/strict";
import type { Hono } from "hono";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";

export const T = Date.now() - 10 * 60_000;
const HREF = "https://shop.test/products/42";

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

function shopSnapshot(paddingChars: number) {
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
      // the terms in full: a frame past 1 MiB is served from its own address
      el("p", { style: "display:none" }, text("terms ".repeat(Math.ceil(paddingChars / 6)))),
    ),
  );
  return { type: 0, id: 1, childNodes: [el("html", {}, el("head", {}), body)] };
}

type Node = { id: number; attributes?: Record<string, string>; childNodes?: unknown[] };
const find = (node: Node, want: string): number | null => {
  if (node.attributes?.id === want) return node.id;
  for (const child of (node.childNodes ?? []) as Node[]) {
    const found = find(child, want);
    if (found) return found;
  }
  return null;
};

const click = (id: number, x: number, y: number, timestamp: number) => ({
  type: 3,
  data: { source: 2, type: 2, id, x, y },
  timestamp,
});

/**
 * Ingests the visits into the project of `key` (`paddingChars` of hidden text make the page that
 * much larger); the external ids of those that raged on the coupon.
 */
export async function recordShop(
  app: Hono,
  key: string,
  { popup = false, paddingChars = 0 }: { popup?: boolean; paddingChars?: number } = {},
) {
  const snapshot = shopSnapshot(paddingChars);
  const [buy, share, coupon] = ["buy", "share", "coupon"].map((id) => find(snapshot, id)!);
  const start = [
    { type: 4, data: { href: HREF, width: 1440, height: 900 }, timestamp: T },
    { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: T + 1 },
  ];
  const send = async (events: unknown[]) => {
    const sessionId = crypto.randomUUID();
    const res = await postIngest(app, { sessionId, events, metadata: METADATA }, { key });
    assert.equal(res.status, 204);
    return sessionId;
  };
  const couponers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const events: unknown[] = [
      ...start,
      click(buy, 800 + i, 240, T + 100),
      click(share, 790, 310, T + 2_000),
    ];
    if (i < 2) {
      for (let k = 0; k < 3; k++) events.push(click(coupon, 820, 380, T + 4_000 + k * 100));
      const payload = { selector: "button#coupon", text: "", x: 820, y: 380, at: T + 4_000 };
      events.push({
        type: 5,
        data: { tag: "service:rage_click", payload: { ...payload, clicks: 3 } },
        timestamp: T + 5_200,
      });
    }
    events.push({ type: 3, data: { source: 3, id: 1, x: 0, y: 200 * i }, timestamp: T + 6_000 });
    const id = await send(events);
    if (i < 2) couponers.push(id);
  }
  if (popup) {
    // A box added at 1 s with its Claim button, clicked at 1.5 s: in no snapshot of the page.
    const box = { ...el("div", { style: "position:absolute;left:10%;top:600px" }), id: 900 };
    const claim = { ...el("button", { id: "claim" }, text("Claim")), id: 901 };
    const body = (snapshot.childNodes[0] as { childNodes: Node[] }).childNodes[1].id;
    const adds = [
      { parentId: body, nextId: null, node: box },
      { parentId: box.id, nextId: null, node: claim },
    ];
    await send([
      ...start,
      {
        type: 3,
        data: { source: 0, adds, removes: [], texts: [], attributes: [] },
        timestamp: T + 1_000,
      },
      click(claim.id, 200, 610, T + 1_500),
    ]);
  }
  return { couponers };
}
