// The replay page finishes loading when the recorded site's servers never answer: a first snapshot
// whose images, stylesheet and font sit on a server that accepts connections and says nothing.
// The page's own `load` comes (opened, reloaded, and come back to), and the recorded page shows.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { frameText, type RrwebEvent, startReplayWorld } from "./replay_world.ts";
import { T0 } from "@/tests/helpers/times.ts";

/** Accepts connections and reads each request's first line, never answering one. */
function silentServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held = new Set<Deno.Conn>();
  const paths: string[] = [];
  const hold = async (conn: Deno.Conn) => {
    held.add(conn);
    const buffer = new Uint8Array(16 * 1024);
    try {
      for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
        const line = new TextDecoder().decode(buffer.subarray(0, n)).split("\r\n")[0];
        const path = line.split(" ")[1];
        if (path) paths.push(path);
      }
    } catch {
      // closed at the end
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) hold(conn);
    } catch {
      // the listener closed
    }
  })();
  return {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    paths,
    [Symbol.asyncDispose]: async () => {
      listener.close();
      await accepting;
      for (const conn of held) conn.close();
    },
  };
}

const el = (id: number, tagName: string, attributes: object, childNodes: object[] = []) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const text = (id: number, textContent: string) => ({ type: 3, id, textContent });

/** A page whose stylesheet (not inlined), font, images and background all wait on `site`. */
function recording(site: string): RrwebEvent[] {
  const css =
    `@font-face { font-family: Recorded; src: url(${site}/font.woff2) format("woff2") } ` +
    `h1 { font-family: Recorded, sans-serif }`;
  const node = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, id: 2, name: "html", publicId: "", systemId: "" },
      el(3, "html", {}, [
        el(4, "head", {}, [
          el(5, "link", { rel: "stylesheet", href: `${site}/site.css` }),
          el(6, "style", {}, [text(7, css)]),
        ]),
        el(8, "body", {}, [
          el(9, "h1", {}, [text(10, "A shop whose servers never answer")]),
          el(11, "img", { src: `${site}/photo.png`, width: "120", height: "80", alt: "" }),
          el(12, "picture", {}, [
            el(13, "source", { srcset: `${site}/banner.webp`, type: "image/webp" }),
            el(14, "img", { src: `${site}/banner.png`, width: "300", height: "60", alt: "" }),
          ]),
          el(15, "div", {
            style: `width: 50px; height: 50px; background-image: url(${site}/texture.png)`,
          }),
          el(16, "p", {}, [text(17, "Every product in stock")]),
        ]),
      ]),
    ],
  };
  return [
    { type: 4, data: { href: "https://shop.test/", width: 1024, height: 640 }, timestamp: T0 },
    { type: 2, data: { node, initialOffset: { left: 0, top: 0 } }, timestamp: T0 + 1 },
    { type: 3, data: { source: 1, positions: [] }, timestamp: T0 + 2_000 },
  ];
}

const SHOWN = "A shop whose servers never answer Every product in stock";

/** The page's own load came, and the player's frame shows the recorded page. */
async function loadedShowingRecording(page: Page) {
  assert.equal(await page.evaluate(() => document.readyState), "complete");
  await page.locator(".replay-player[data-ready='true']").waitFor();
  assert.equal(await frameText(page), SHOWN);
}

// Past this, the load is not coming: the recorded site's servers hold it (without them it comes in
// a few seconds even on a loaded host).
const LOAD = { waitUntil: "load", timeout: 20_000 } as const;

Deno.test("replay e2e: the replay page finishes loading while the recorded site's servers never answer", async (t) => {
  await using site = silentServer();
  await using world = await startReplayWorld();
  const sessionId = await world.record(recording(site.origin));
  const { page, errors } = await world.page({ width: 1280, height: 800 });
  const replay = `${world.url}/replays/${sessionId}`;

  await t.step("opened", async () => {
    await page.goto(replay, LOAD);
    await loadedShowingRecording(page);
    // The recording's loads were made, and are still waiting.
    for (const path of ["/site.css", "/photo.png", "/font.woff2"]) {
      assert.ok(site.paths.includes(path), `${path} asked for (${site.paths.join(", ")})`);
    }
  });

  await t.step("reloaded", async () => {
    await page.reload(LOAD);
    await loadedShowingRecording(page);
  });

  await t.step("come back to from another page", async () => {
    await page.goto(`${world.url}/sessions`, LOAD);
    await page.goBack(LOAD);
    assert.equal(page.url(), replay);
    await loadedShowingRecording(page);
  });

  assert.deepEqual(errors, []);
  await page.context().close();
});
