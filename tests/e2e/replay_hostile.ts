// A crafted recording that tries every way a replayed page could run code or navigate: <script>,
// on*= handlers, javascript: URLs, <meta http-equiv="refresh">, <base href>, a form with action,
// <iframe srcdoc>, both in the full snapshot and in later mutations, plus console arguments and a
// url marker that are markup. Every attempt targets `beacon` so a test sees any that succeeds.
import type { RrwebEvent } from "./replay_world.ts";

const el = (id: number, tagName: string, attributes: object, childNodes: object[] = []) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const text = (id: number, textContent: string) => ({ type: 3, id, textContent });

export const MARKUP_ARGUMENT = "<img src=x onerror=alert(1)>";
export const MARKUP_PATH = "<script>alert(1)</script>";

export function hostileRecording(beacon: string, start: number): RrwebEvent[] {
  const run = (what: string) => `fetch('${beacon}/${what}');window.top.__pwned='${what}'`;
  const srcdoc = `<script>${run("srcdoc")}</script>` +
    `<meta http-equiv="refresh" content="0;url=${beacon}/srcdoc-refresh">`;
  const snapshot = {
    type: 0,
    id: 1,
    childNodes: [
      { type: 1, id: 2, name: "html", publicId: "", systemId: "" },
      el(3, "html", {}, [
        el(4, "head", {}, [
          el(5, "meta", { "http-equiv": "refresh", content: `0;url=${beacon}/refresh` }),
          el(6, "base", { href: `${beacon}/base/` }),
          el(7, "script", {}, [text(8, run("script"))]),
          el(9, "script", { src: `${beacon}/script.js` }),
        ]),
        el(10, "body", { onload: run("onload") }, [
          el(11, "h1", { onmouseover: run("hover") }, [text(12, "Hostile page")]),
          el(13, "img", { src: "relative.png", onerror: run("onerror") }),
          el(14, "a", { href: `javascript:${run("href")}` }, [text(15, "a link")]),
          el(16, "form", { action: `${beacon}/form`, method: "post" }, [
            el(17, "input", { type: "submit", formaction: `${beacon}/formaction` }),
          ]),
          el(18, "iframe", { srcdoc }),
          el(19, "object", { data: `javascript:${run("object")}` }),
        ]),
      ]),
    ],
  };
  const at = (ms: number) => start + ms;
  return [
    {
      type: 4,
      data: { href: "https://hostile.test/", width: 1024, height: 640 },
      timestamp: at(0),
    },
    { type: 2, data: { node: snapshot, initialOffset: { left: 0, top: 0 } }, timestamp: at(1) },
    {
      type: 3,
      timestamp: at(500),
      data: {
        source: 0,
        texts: [],
        removes: [],
        attributes: [
          { id: 11, attributes: { onclick: run("mutated-onclick") } },
          { id: 14, attributes: { href: `  javascript:${run("mutated-href")}` } },
          { id: 6, attributes: { href: `${beacon}/mutated-base/` } },
          { id: 16, attributes: { action: `${beacon}/mutated-form` } },
        ],
        // rrweb adds every node on its own, children after their parent.
        adds: [
          { parentId: 4, nextId: null, node: el(20, "script", {}) },
          { parentId: 20, nextId: null, node: text(21, run("added-script")) },
          {
            parentId: 4,
            nextId: null,
            node: el(22, "meta", { "http-equiv": "refresh", content: `0;url=${beacon}/added` }),
          },
          { parentId: 10, nextId: null, node: el(23, "iframe", { srcdoc }) },
          { parentId: 10, nextId: null, node: el(24, "p", {}) },
          { parentId: 24, nextId: null, node: text(25, "Mutated in") },
        ],
      },
    },
    {
      type: 6,
      timestamp: at(700),
      data: {
        plugin: "rrweb/console@1",
        payload: { level: "warn", trace: [], payload: [JSON.stringify(MARKUP_ARGUMENT)] },
      },
    },
    {
      type: 5,
      timestamp: at(900),
      data: {
        tag: "service:url",
        payload: { url: `javascript:${run("marker")}`, pathname: MARKUP_PATH },
      },
    },
    {
      type: 3,
      timestamp: at(2_000),
      data: { source: 1, positions: [{ x: 5, y: 5, id: 11, timeOffset: 0 }] },
    },
  ];
}
