// Every repository path that a comment, a README or ARCHITECTURE.md names exists, so a reader who
// follows one lands somewhere. Paths under git-ignored folders (builds, benchmark output) are made
// by a command, patterns (`<resource>`, `*_test.ts`) are not paths, and bench/RESULTS.md is a
// dated record: its paths are those of the day each run was made. Nor does prose cite a document
// the repository does not hold (a design note's section, an issue number): it states the rule, or
// points to docs/decisions.md.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const TOP =
  "api|bench|charts|components|core|db|docs|fresh|hooks|http|islands|page_state|player|routes|sdk|static|tests|utils";
/** A path-looking token: a top-level folder, then name characters, not inside a URL or route. */
const PATH = new RegExp(`(?<![\\w/.@$-])((?:${TOP})/[\\w.\\[\\]()/-]*)`, "g");
const TEXT_FILE = /\.(ts|tsx|css|md)$/;
/** Citations of documents outside the repository. */
const OUTSIDE = /DECISIONS|DESIGN §|spec §|\bthe spec\b|\b[Ii]ssue [0-9]+/;

async function trackedFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files"], cwd: ROOT }).output();
  assert.ok(out.success, "git ls-files");
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((f) => TEXT_FILE.test(f) && f !== "bench/RESULTS.md");
}

async function ignoredPrefixes(): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(".gitignore", ROOT));
  return text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
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
  const ignored = await ignoredPrefixes();
  const missing: string[] = [];
  for (const file of await trackedFiles()) {
    const lines = prose(file, await Deno.readTextFile(new URL(file, ROOT)));
    lines.forEach((line, i) => {
      for (const match of line.matchAll(PATH)) {
        const after = line[match.index! + match[1].length] ?? "";
        if (after === "<" || after === "*" || after === "…" || after === "{") continue; // a pattern
        const path = match[1].replace(/[.)]+$/, "").replace(/\/$/, "");
        if (ignored.some((prefix) => `${path}/`.startsWith(prefix))) continue;
        if (!exists(path)) missing.push(`${file}:${i + 1}: ${path}`);
      }
    });
  }
  assert.deepEqual(missing, []);
});

Deno.test("comments, the README and ARCHITECTURE.md cite no document outside the repository", async () => {
  const cited: string[] = [];
  for (const file of await trackedFiles()) {
    const lines = prose(file, await Deno.readTextFile(new URL(file, ROOT)));
    lines.forEach((line, i) => {
      if (OUTSIDE.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(cited, []);
});
