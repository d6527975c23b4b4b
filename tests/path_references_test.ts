// Every repository path that a comment, a README or ARCHITECTURE.md names exists, so a reader who
// follows one lands somewhere. Paths under git-ignored folders (builds, benchmark output) are made
// by a command, patterns (`<resource>`, `*_test.ts`) are not paths, and bench/RESULTS.md is a
// dated record: its paths are those of the day each run was made. Nor does prose cite a document
// the repository does not hold (a design note's section, an issue number): it states the rule, or
// points to docs/decisions.md.
import assert from "node:assert/strict";
import { gitIgnored, sourceFiles } from "./helpers/source_files.ts";

const ROOT = new URL("../", import.meta.url);
const TOP =
  "api|bench|charts|components|core|db|docs|fresh|hooks|http|islands|page_state|player|routes|sdk|static|tests|utils";
/** A path-looking token: a top-level folder, then name characters, not inside a URL or route. */
const PATH = new RegExp(`(?<![\\w/.@$-])((?:${TOP})/[\\w.\\[\\]()/-]*)`, "g");
const TEXT_FILE = /\.(ts|tsx|css|md)$/;
/** Citations of documents outside the repository. */
const OUTSIDE = /DECISIONS|DESIGN §|spec §|\bthe spec\b|\b[Ii]ssue [0-9]+/;

/** The files a reader reads: source and Markdown, in the repository as an archive holds it. */
async function proseFiles(): Promise<string[]> {
  return (await sourceFiles()).filter((f) => TEXT_FILE.test(f) && f !== "bench/RESULTS.md");
}

/** The parts of a file a reader reads as prose: comments in code, everything in Markdown. */
function prose(file: string, text: string): string[] {
  if (file.endsWith(".md")) return text.split("\n");
  return text.split("\n").map((line) => line.match(/(?:\/\/|\/\*|^\s*\*)(.*)$/)?.[1] ?? "");
}

function exists(path: string): boolean {
  try {
    Deno.statSync(new URL(path, ROOT));
    return true;
  } catch {
    return false;
  }
}

Deno.test("repository paths named in comments, the README and ARCHITECTURE.md exist", async () => {
  const ignored = await gitIgnored();
  const missing: string[] = [];
  for (const file of await proseFiles()) {
    const lines = prose(file, await Deno.readTextFile(new URL(file, ROOT)));
    lines.forEach((line, i) => {
      for (const match of line.matchAll(PATH)) {
        const after = line[match.index! + match[1].length] ?? "";
        if (after === "<" || after === "*" || after === "…" || after === "{") continue; // a pattern
        const path = match[1].replace(/[.)]+$/, "").replace(/\/$/, "");
        if (ignored(`${path}/`) || ignored(path)) continue;
        if (!exists(path)) missing.push(`${file}:${i + 1}: ${path}`);
      }
    });
  }
  assert.deepEqual(missing, []);
});

Deno.test("comments, the README and ARCHITECTURE.md cite no document outside the repository", async () => {
  const cited: string[] = [];
  for (const file of await proseFiles()) {
    const lines = prose(file, await Deno.readTextFile(new URL(file, ROOT)));
    lines.forEach((line, i) => {
      if (OUTSIDE.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(cited, []);
});
