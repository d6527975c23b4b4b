// A session whose first snapshot is one long page: `nodes` nodes (a div and its text per row), the
// page of `first_frame_limit.ts` and `first_frame_stages.ts`.
import { EventType, IncrementalSource, NodeType } from "@rrweb/types";

export function hugeRecording(nodes: number, start: number) {
  const rows = Array.from({ length: nodes / 2 }, (_, i) => ({
    type: NodeType.Element,
    id: 10 + 2 * i,
    tagName: "div",
    attributes: { class: "row", "data-i": String(i) },
    childNodes: [{
      type: NodeType.Text,
      id: 11 + 2 * i,
      textContent: `Row ${i} of a very long list`,
    }],
  }));
  const html = {
    type: NodeType.Element,
    id: 2,
    tagName: "html",
    attributes: {},
    childNodes: [
      { type: NodeType.Element, id: 3, tagName: "head", attributes: {}, childNodes: [] },
      { type: NodeType.Element, id: 4, tagName: "body", attributes: {}, childNodes: rows },
    ],
  };
  return [
    {
      type: EventType.Meta,
      timestamp: start,
      data: { href: "https://big.test/", width: 1280, height: 800 },
    },
    {
      type: EventType.FullSnapshot,
      timestamp: start + 1,
      data: {
        node: { type: NodeType.Document, id: 1, childNodes: [html] },
        initialOffset: { left: 0, top: 0 },
      },
    },
    {
      type: EventType.IncrementalSnapshot,
      timestamp: start + 500,
      data: { source: IncrementalSource.MouseMove, positions: [] },
    },
  ];
}
