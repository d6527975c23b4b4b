// Build-time compression: writes `<file>.br` and `<file>.gz` beside each compressible build output,
// so the server sends them as they are instead of compressing on every request.
import { promisify } from "node:util";
import zlib from "node:zlib";
import { COMPRESSIBLE_FILE, SUFFIX } from "./encoding.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Production builds use the maximum levels (brotli 11, gzip 9): the cost is paid once per build.
 * Development builds (unminified, inline source maps, rebuilt on every restart) use quick ones.
 */
export async function precompressFiles(files: string[], options: { dev?: boolean } = {}) {
  const quality = options.dev ? 5 : zlib.constants.BROTLI_MAX_QUALITY;
  const level = options.dev ? 6 : zlib.constants.Z_BEST_COMPRESSION;
  await Promise.all(
    files.filter((f) => COMPRESSIBLE_FILE.test(f)).map(async (file) => {
      const bytes = await Deno.readFile(file);
      const params = {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      };
      const [br, gz] = await Promise.all([brotli(bytes, { params }), gzip(bytes, { level })]);
      await Deno.writeFile(file + SUFFIX.br, br);
      await Deno.writeFile(file + SUFFIX.gzip, gz);
    }),
  );
}

/** Removes a build output together with its precompressed siblings. */
export async function removeWithVariants(file: string): Promise<void> {
  for (const path of [file, file + SUFFIX.br, file + SUFFIX.gzip]) {
    await Deno.remove(path).catch(() => {});
  }
}
