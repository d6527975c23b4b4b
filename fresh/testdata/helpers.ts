// Test helpers: the fixture app's page handler with a fake islands build in a temporary folder.
import { fileURLToPath } from "node:url";
import { createPageHandler, type PageHandler } from "@/fresh/server.ts";
import manifest from "./fresh.gen.ts";

export const FIXTURE_DIR = fileURLToPath(new URL(".", import.meta.url));
export const FIXTURE_STATIC = fileURLToPath(new URL("./static", import.meta.url));

export const FAKE_BUILD = {
  buildId: "testbuild",
  boot: "fresh-boot-AAAA1111.js",
  islands: { Counter: "island-Counter-BBBB2222.js" },
  imports: { "island-Counter-BBBB2222.js": ["chunk-CCCC3333.js"] },
  files: ["chunk-CCCC3333.js", "fresh-boot-AAAA1111.js", "island-Counter-BBBB2222.js"],
};

export async function fakeBuildDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "fresh-build-" });
  await Deno.writeTextFile(`${dir}/manifest.json`, JSON.stringify(FAKE_BUILD));
  for (const file of FAKE_BUILD.files) await Deno.writeTextFile(`${dir}/${file}`, "export {};");
  // Another build (the SDK) writing hashed and stable names into a subfolder.
  await Deno.mkdir(`${dir}/sdk`);
  await Deno.writeTextFile(`${dir}/sdk/playhead-ABCD1234.js`, "");
  await Deno.writeTextFile(`${dir}/sdk/playhead.js`, "");
  return dir;
}

export interface Fixture extends AsyncDisposable {
  handle: PageHandler;
  errors: unknown[];
  get(path: string, init?: RequestInit): Promise<Response>;
}

export async function fixture(options: { basePath?: string } = {}): Promise<Fixture> {
  const buildDir = await fakeBuildDir();
  const errors: unknown[] = [];
  const handle = await createPageHandler(manifest, {
    staticDir: FIXTURE_STATIC,
    buildDir,
    basePath: options.basePath,
    onError: (error) => errors.push(error),
  });
  return {
    handle,
    errors,
    get: (path, init) => handle(new Request(`http://localhost${path}`, init), { deps: "fake" }),
    [Symbol.asyncDispose]: () => Deno.remove(buildDir, { recursive: true }),
  };
}
