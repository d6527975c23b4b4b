// The house rule "small modules with one job": no app file over 300 lines. Tests, benchmarks and
// the generated manifest are not app files.
import assert from "node:assert/strict";
import { sourceFiles } from "./helpers/source_files.ts";

const MAX_LINES = 300;

const isAppFile = (path: string) =>
  /\.(ts|tsx)$/.test(path) && !/_test\.tsx?$/.test(path) && !/^(tests|bench)\//.test(path) &&
  path !== "fresh.gen.ts";

Deno.test("file size: no app file is over 300 lines", async () => {
  const over: string[] = [];
  for (const path of (await sourceFiles()).filter(isAppFile)) {
    const text = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES) over.push(`${path}: ${lines}`);
  }
  assert.deepEqual(over, []);
});
