// rrweb-shaped recordings of one small page for the heatmaps' tests without a browser: a toolbar of
// three buttons (the first with an id), a link around a span and a plain paragraph, clicked and
// scrolled where a test says.
export const NODE = {
  document: 1,
  html: 2,
  body: 4,
  toolbar: 5,
  buy: 6,
  buyText: 7,
  second: 8,
  third: 9,
  link: 10,
  linkSpan: 11,
  paragraph: 12,
} as const;

const text = (id: number, textContent: string) => ({ type: 3, textContent, id });
const el = (
  id: number,
  tagName: string,
  attributes: Record<string, string>,
  childNodes: unknown[] = [],
) => ({
  type: 2,
  tagName,
  attributes,
  childNodes,
  id,
});

export function pageSnapshot() {
  return {
    type: 0,
    id: NODE.document,
    childNodes: [
      el(NODE.html, "html", {}, [
        el(3, "head", {}),
        el(NODE.body, "body", {}, [
          el(NODE.toolbar, "div", { class: "toolbar main extra" }, [
            el(NODE.buy, "button", { id: "buy" }, [text(NODE.buyText, "Buy")]),
            el(NODE.second, "button", { class: "ghost" }, [text(20, "Later")]),
            el(NODE.third, "button", {}, [text(21, "Share")]),
          ]),
          el(NODE.link, "a", { href: "/help" }, [
            el(NODE.linkSpan, "span", {}, [text(22, "Help")]),
          ]),
          el(NODE.paragraph, "p", {}, [text(23, "Words")]),
        ]),
      ]),
    ],
  };
}

export interface Visit {
  href: string;
  width: number;
  height: number;
  start: number;
}

export const meta = (v: Visit, at = v.start) => ({
  type: 4,
  data: { href: v.href, width: v.width, height: v.height },
  timestamp: at,
});

export const snapshot = (at: number, top = 0) => ({
  type: 2,
  data: { node: pageSnapshot(), initialOffset: { left: 0, top } },
  timestamp: at,
});

export const click = (id: number, x: number, y: number, at: number) => ({
  type: 3,
  data: { source: 2, type: 2, id, x, y },
  timestamp: at,
});

export const scroll = (y: number, at: number, id: number = NODE.document) => ({
  type: 3,
  data: { source: 3, id, x: 0, y },
  timestamp: at,
});

export const resize = (width: number, height: number, at: number) => ({
  type: 3,
  data: { source: 4, width, height },
  timestamp: at,
});

export const signal = (
  kind: "rage_click" | "dead_click",
  payload: { selector: string; x: number; y: number; at: number; clicks?: number },
  timestamp: number,
) => ({ type: 5, data: { tag: `service:${kind}`, payload: { text: "", ...payload } }, timestamp });
