// Loads started by recorded CSS in a replay — @font-face and background images in a recorded
// <style>, a style attribute, an inlined stylesheet, CSSOM rule inserts and adopted stylesheets —
// reach the recorded site's hosts without any Referer, from the server's first frame and the
// player's own frame alike.
import assert from "node:assert/strict";
import { artifactPath } from "@/tests/helpers/browser.ts";
import {
  holdIslands,
  playToEnd,
  type RrwebEvent,
  startReplayWorld,
  waitLoaded,
  waitServerFrame,
} from "./replay_world.ts";
import { recent } from "@/tests/helpers/times.ts";

const START = recent(1_790_000_000_000);

/** A third party on another origin (localhost, not the app's 127.0.0.1) noting each Referer. */
function startThirdParty() {
  const seen: Array<{ path: string; referer: string | null }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, referer: req.headers.get("referer") });
    const type = path.endsWith(".woff2") ? "font/woff2" : "image/png";
    return new Response("not really a " + type, { headers: { "content-type": type } });
  });
  return { url: `http://localhost:${server.addr.port}`, seen, server };
}

const el = (id: number, tagName: string, attributes: object, childNodes: object[] = []) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const text = (id: number, textContent: string, isStyle = false) => ({
  type: 3,
  id,
  textContent,
  ...(isStyle ? { isStyle } : {}),
});

/** Every place rrweb keeps CSS, each naming its own third-party file. */
function recording(third: string): RrwebEvent[] {
  const font = (name: string) =>
    `@font-face { font-family: F${name}; src: url(${third}/font/${name}.woff2) format("woff2") }`;
  const inlineStyle = `${font("style")} .by-style { font-family: Fstyle; ` +
    `background-image: url(${third}/img/style.png) }`;
  const linkedCss = `${font("link")} .by-link { font-family: Flink; ` +
    `background-image: url(${third}/img/link.png) }`;
  const snapshot = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, id: 2, name: "html", publicId: "", systemId: "" },
      el(3, "html", {}, [
        el(4, "head", {}, [
          el(5, "style", {}, [text(6, inlineStyle, true)]),
          el(7, "link", { rel: "stylesheet", href: `${third}/never.css`, _cssText: linkedCss }),
        ]),
        el(8, "body", {}, [
          el(9, "p", { class: "by-style" }, [text(10, "Styled by a style element")]),
          el(11, "p", { class: "by-link" }, [text(12, "Styled by an inlined sheet")]),
          el(13, "div", {
            style: `width: 40px; height: 40px; background-image: url(${third}/img/attribute.png)`,
          }),
          el(14, "p", { class: "by-rule" }, [text(15, "Styled by an inserted rule")]),
          el(16, "p", { class: "by-adopted" }, [text(17, "Styled by an adopted sheet")]),
          el(18, "div", { id: "later", style: "width: 40px; height: 40px" }),
        ]),
      ]),
    ],
  };
  const incremental = (timestamp: number, data: object) => ({ type: 3, timestamp, data });
  return [
    { type: 4, data: { href: "https://site.test/", width: 1024, height: 640 }, timestamp: START },
    { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: START + 1 },
    incremental(START + 100, {
      source: 8,
      id: 5,
      adds: [{ rule: `.by-rule { background-image: url(${third}/img/rule.png) }` }],
    }),
    incremental(START + 200, {
      source: 15,
      id: 1,
      styleIds: [1],
      styles: [{
        styleId: 1,
        rules: [{ rule: `.by-adopted { background-image: url(${third}/img/adopted.png) }` }],
      }],
    }),
    incremental(START + 300, {
      source: 0,
      texts: [],
      removes: [],
      adds: [],
      attributes: [{
        id: 18,
        attributes: {
          style: `width: 40px; height: 40px; background: url(${third}/img/mutated.png)`,
        },
      }],
    }),
  ];
}

Deno.test("replay e2e: no load started by recorded CSS carries a Referer", async () => {
  await using world = await startReplayWorld();
  const third = startThirdParty();
  try {
    const sessionId = await world.record(recording(third.url));
    const { page, errors } = await world.page();
    const release = await holdIslands(page);
    await page.goto(`${world.url}/replays/${sessionId}`, { waitUntil: "commit" });
    await waitServerFrame(page);
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: await artifactPath("replay_css_server_frame.png") });
    const byServerFrame = third.seen.length;
    release();

    await page.locator(".replay-player[data-ready='true']").waitFor();
    await waitLoaded(page);
    await playToEnd(page);
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: await artifactPath("replay_css_player.png") });

    const paths = third.seen.map((r) => r.path);
    // Each kind of recorded CSS did load its file (else the Referer check below would be empty).
    for (const path of ["/font/style.woff2", "/img/style.png", "/img/attribute.png"]) {
      assert.ok(paths.slice(0, byServerFrame).includes(path), `server frame: ${path} in ${paths}`);
    }
    for (
      const path of [
        "/font/style.woff2",
        "/font/link.woff2",
        "/img/style.png",
        "/img/link.png",
        "/img/attribute.png",
        "/img/rule.png",
        "/img/adopted.png",
        "/img/mutated.png",
      ]
    ) {
      assert.ok(paths.slice(byServerFrame).includes(path), `player: ${path} in ${paths}`);
    }
    assert.deepEqual(third.seen.filter((r) => r.referer !== null), [], "a Referer was sent");
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await third.server.shutdown();
  }
});
