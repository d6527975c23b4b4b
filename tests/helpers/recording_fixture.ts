// One recorded page for tests: a Meta event and a full snapshot of document (id 1) → html (id 2) →
// body (id 3) holding what a test puts there, written with rrweb's names (`EventType`, `NodeType`
// of @rrweb/types) rather than bare numbers. Recordings made by hand build their page here.
import { EventType, NodeType } from "@rrweb/types";

/** A text node of a snapshot. */
export const textNode = (id: number, textContent: string) => ({
  type: NodeType.Text,
  id,
  textContent,
});

/** A serialized node a test puts in a snapshot (rrweb's shape, kept loose for test data). */
export type SnapshotNode = { type: NodeType; id: number; [field: string]: unknown };

/** An element of a snapshot. */
export const elementNode = (
  id: number,
  tagName: string,
  attributes: Record<string, string | number | boolean> = {},
  childNodes: SnapshotNode[] = [],
) => ({ type: NodeType.Element, id, tagName, attributes, childNodes });

/** A Meta event: the page's address and viewport (800 × 600 unless told). */
export const metaEvent = (
  timestamp: number,
  href = "https://shop.test/",
  width = 800,
  height = 600,
) => ({
  type: EventType.Meta,
  data: { href, width, height },
  timestamp,
});

/** A full snapshot of one page whose body (with `bodyAttributes`) holds `body`. */
export const pageSnapshot = (
  timestamp: number,
  body: SnapshotNode[] = [],
  bodyAttributes: Record<string, string> = {},
) => ({
  type: EventType.FullSnapshot,
  data: {
    node: {
      type: NodeType.Document,
      id: 1,
      childNodes: [elementNode(2, "html", {}, [elementNode(3, "body", bodyAttributes, body)])],
    },
    initialOffset: { left: 0, top: 0 },
  },
  timestamp,
});
