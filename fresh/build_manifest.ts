// The build manifest (`<buildDir>/manifest.json`) written by the islands build: which content-hashed
// chunk holds the boot script and each island, and every file the build produced.

export interface BuildManifest {
  /** Changes whenever any output changes; used by `asset()` cache busting. */
  buildId: string;
  /** File names relative to the build directory. */
  boot: string;
  islands: Record<string, string>;
  /** Static imports of each entry file, for <link rel="modulepreload">. */
  imports: Record<string, string[]>;
  /** Every output file: these carry content hashes and are served as immutable. */
  files: string[];
}

export const BUILD_MANIFEST = "manifest.json";
/** URL path under which the build directory is served. */
export const BUILD_URL_PREFIX = "/build/";

export async function readBuildManifest(buildDir: string): Promise<BuildManifest | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${buildDir}/${BUILD_MANIFEST}`));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
