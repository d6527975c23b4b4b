// No bare rrweb event number in the app: an event's kind is compared and written with the named
// constants of @rrweb/types (`EventType.Plugin`, `IncrementalSource.Scroll`), never `type === 6`
// or `source: 3`, which say nothing and break silently if the format changes. App files only:
// tests and benchmarks write recordings as data. The folders are every one with code that reads
// or writes events.
import assert from "node:assert/strict";
import { sourceFiles } from "./helpers/source_files.ts";

const FOLDERS =
  /^(recording|core|player|sdk|api|routes|islands|components|http|utils|page_state)\//;

const isAppFile = (path: string) =>
  FOLDERS.test(path) && /\.(ts|tsx)$/.test(path) && !/_test\.tsx?$/.test(path);

/** A number compared with, or given as, an event's `type` or `source`; an enum-typed constant. */
const BARE = [
  /\b(type|source)\s*[!=]==?\s*\d/,
  /\d\s*[!=]==?\s*[\w.?]*\b(type|source)\b/,
  /\b(type|source)\s*:\s*\d/,
  /\bcase\s+\d+\s*:/,
  /:\s*(EventType|IncrementalSource|NodeType)\.\w+\s*=\s*\d/,
];

/** The lines of `text` that hold a bare event number, as `path:line: text`. */
export function bareEventNumbers(path: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) =>
    BARE.some((pattern) => pattern.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : []
  );
}

Deno.test("bare event numbers: each pattern is caught, the named constants are not", () => {
  for (
    const line of [
      "if (event.type === 6) {",
      "if (event.type !== 5) return null;",
      "e.data.source == 2 &&",
      "if (3 === event.type) {",
      "return { type: 5, data };",
      "{ source: 3, id }",
      "case 2:",
      "const PLUGIN_EVENT: EventType.Plugin = 6;",
    ]
  ) assert.equal(bareEventNumbers("x.ts", line).length, 1, line);
  for (
    const line of [
      "if (event.type === EventType.Plugin) {",
      "return { type: EventType.Custom, data };",
      "case EventType.Meta:",
      "const MAX_TYPES = 6;",
      "if (count === 0) return;",
    ]
  ) assert.deepEqual(bareEventNumbers("x.ts", line), [], line);
});

Deno.test("bare event numbers: none in the app's files", async () => {
  const found: string[] = [];
  for (const path of (await sourceFiles()).filter(isAppFile)) {
    const text = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
    found.push(...bareEventNumbers(path, text));
  }
  assert.deepEqual(found, []);
});
