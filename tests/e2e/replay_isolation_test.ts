// Replay isolation in a real browser: a replay loads the recorded site's look (images, stylesheets)
// from wherever the recording names, but no document through <iframe src>, <object> or <embed>, and
// no request of either replay frame (the server's srcdoc, the player's own) carries a Referer,
// however the recording sets its referrer policy. A frame whose content rrweb recorded still
// replays.
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";
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

/** Another origin (localhost, not the app's 127.0.0.1) that notes every request and its Referer. */
function startRemote() {
  const seen: Array<{ path: string; referer: string | null }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, referer: req.headers.get("referer") });
    const type = path.endsWith(".css") ? "text/css" : "text/plain";
    const body = path.endsWith(".css") ? "p { color: rgb(1, 2, 3) }" : "remote";
    return new Response(body, { headers: { "content-type": type } });
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
const text = (id: number, textContent: string) => ({ type: 3, id, textContent });

function recording(remote: string): RrwebEvent[] {
  const doc = (name: string) => `${remote}/doc/${name}`;
  const snapshot = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, id: 2, name: "html", publicId: "", systemId: "" },
      el(3, "html", {}, [
        el(4, "head", {}, [
          el(5, "meta", { name: "referrer", content: "unsafe-url" }),
          el(6, "link", { rel: "stylesheet", href: `${remote}/look/style.css` }),
        ]),
        el(7, "body", {}, [
          el(8, "p", {}, [text(9, "Isolated page")]),
          el(10, "img", { src: `${remote}/look/img.png`, referrerpolicy: "unsafe-url" }),
          el(11, "iframe", { src: doc("iframe"), width: "300", height: "200" }),
          el(12, "object", { data: doc("object"), width: "300", height: "100" }),
          el(13, "embed", { src: doc("embed"), width: "320", height: "50" }),
          // A same-origin frame of the recorded site: rrweb kept no source, only its content.
          el(14, "iframe", { width: "200", height: "80" }),
        ]),
      ]),
    ],
  };
  return [
    { type: 4, data: { href: "https://site.test/", width: 1024, height: 640 }, timestamp: START },
    { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: START + 1 },
    {
      // rrweb's attachment of the recorded frame's document.
      type: 3,
      timestamp: START + 2,
      data: {
        source: 0,
        isAttachIframe: true,
        texts: [],
        attributes: [],
        removes: [],
        adds: [{
          parentId: 14,
          nextId: null,
          node: {
            type: 0,
            id: 30,
            childNodes: [el(31, "html", {}, [
              el(32, "head", {}),
              el(33, "body", {}, [
                text(34, "Recorded inner frame"),
              ]),
            ])],
          },
        }],
      },
    },
    {
      type: 3,
      timestamp: START + 600,
      data: {
        source: 0,
        texts: [],
        removes: [],
        attributes: [
          { id: 11, attributes: { src: doc("mutated-iframe") } },
          { id: 10, attributes: { referrerpolicy: "unsafe-url", src: `${remote}/look/img2.png` } },
          { id: 5, attributes: { name: "referrer", content: "unsafe-url" } },
        ],
        adds: [
          { parentId: 7, nextId: null, node: el(40, "iframe", { src: doc("added-iframe") }) },
          { parentId: 7, nextId: null, node: el(41, "embed", { src: doc("added-embed") }) },
          { parentId: 7, nextId: null, node: el(42, "object", { data: doc("added-object") }) },
        ],
      },
    },
  ];
}

/** Waits up to 10 s for `done`, then fails saying what never happened. */
async function until(done: () => boolean, what: string) {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(done(), what);
}

/** The browser's console lines in which the replay's policy refused a load. */
function watchRefusals(page: Page): string[] {
  const refusals: string[] = [];
  page.on("console", (m) => {
    if (/violates the following Content Security Policy/.test(m.text())) refusals.push(m.text());
  });
  return refusals;
}

/**
 * Tries, from inside a replay frame, what the policy must stop: documents and objects. Returns
 * once the browser has refused all three (it says so in the console), so a request that were
 * going to be made would have been made by then; the probe's image is allowed.
 */
async function probePolicy(frame: Frame, remote: string, name: string, refusals: string[]) {
  // Framing is reported with the origin only: count the refusals instead.
  const framing = () => refusals.filter((t) => t.startsWith(`Framing '${remote}/'`)).length;
  const framedBefore = framing();
  await frame.evaluate(({ remote, name }) => {
    const frameEl = document.createElement("iframe");
    frameEl.src = `${remote}/doc/${name}-csp-iframe`;
    const object = document.createElement("object");
    object.data = `${remote}/doc/${name}-csp-object`;
    const embed = document.createElement("embed");
    embed.src = `${remote}/doc/${name}-csp-embed`;
    const img = document.createElement("img");
    img.src = `${remote}/look/${name}-csp-img.png`;
    document.body.append(frameEl, object, embed, img);
  }, { remote, name });
  const refused = (tag: string) => refusals.some((t) => t.includes(`/doc/${name}-csp-${tag}'`));
  await until(
    () => framing() > framedBefore && refused("object") && refused("embed"),
    `${name}: the browser never refused the probe's documents: ${refusals.join("\n")}`,
  );
}

/** Waits for the remote to have been asked for each path. */
async function requested(remote: { seen: Array<{ path: string }> }, paths: string[]) {
  const missing = () => paths.filter((p) => !remote.seen.some((r) => r.path === p));
  await until(() => !missing().length, `never requested: ${missing()}`);
}

async function frameOf(page: Page, selector: string): Promise<Frame> {
  const handle = await page.locator(selector).elementHandle();
  const frame = await handle?.contentFrame();
  assert.ok(frame, selector);
  return frame;
}

Deno.test("replay e2e: the recorded look loads, documents do not, and no Referer is sent", async () => {
  await using world = await startReplayWorld();
  const remote = startRemote();
  try {
    const sessionId = await world.record(recording(remote.url));
    const { page, errors } = await world.page();
    const refusals = watchRefusals(page);
    const release = await holdIslands(page);
    const response = await page.goto(`${world.url}/replays/${sessionId}`, { waitUntil: "commit" });
    assert.match(response?.headers()["content-security-policy"] ?? "", /frame-src 'none'/);
    assert.equal(response?.headers()["referrer-policy"], "no-referrer");

    // The server's first frame, before any script of the page runs.
    const server = await waitServerFrame(page);
    await probePolicy(server, remote.url, "server", refusals);
    await requested(remote, ["/look/server-csp-img.png"]);
    assert.match(await server.evaluate(() => document.body.innerText), /Isolated page/);
    release();

    // The player's own frame, played to the end (the mutations included).
    await page.locator(".replay-player[data-ready='true']").waitFor();
    await waitLoaded(page);
    await playToEnd(page);
    const player = await frameOf(page, ".replay-root iframe");
    await probePolicy(player, remote.url, "player", refusals);
    // The recorded look, the last mutation's image among it, and the probes' images: every
    // request that comes has come (the recorded documents have no source left to request).
    const looks = ["style.css", "img.png", "img2.png", "server-csp-img.png", "player-csp-img.png"];
    await requested(remote, looks.map((look) => `/look/${look}`));

    const paths = remote.seen.map((r) => r.path);
    assert.deepEqual(paths.filter((p) => p.startsWith("/doc/")), [], "documents were requested");
    assert.deepEqual(remote.seen.filter((r) => r.referer !== null), [], "a Referer was sent");

    // Placeholders keep the recorded sizes; the recorded frame's content replays.
    const boxes = await player.evaluate(() =>
      ["iframe", "object"].flatMap((tag) =>
        [...document.querySelectorAll(tag)].map((e) => `${tag} ${e.clientWidth}x${e.clientHeight}`)
      )
    );
    assert.deepEqual(boxes.slice(0, 2), ["iframe 300x200", "iframe 200x80"]);
    assert.deepEqual(boxes.filter((b) => b.startsWith("object")).slice(0, 2), [
      "object 300x100",
      "object 320x50",
    ]);
    const inner = await player.evaluate(() =>
      document.querySelectorAll("iframe")[1].contentDocument?.body?.innerText
    );
    assert.equal(inner, "Recorded inner frame");
    assert.equal(
      await player.evaluate(() => getComputedStyle(document.querySelector("p")!).color),
      "rgb(1, 2, 3)",
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  } finally {
    await remote.server.shutdown();
  }
});
