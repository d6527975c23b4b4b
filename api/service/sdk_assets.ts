// Serves the built capture SDK to customers' pages: stable URLs (/sdk/v1/playhead.js and .mjs)
// with a short revalidating cache, and the content-hashed files under /sdk/ cached for good. Each
// goes out as its precompressed `.br`/`.gz` sibling (written by the build) when the client accepts.

import { type Context, Hono } from "hono";
import {
  acceptedVariant,
  type Encoding,
  etagMatches,
  SUFFIX,
  variantEtag,
} from "@/fresh/encoding.ts";
import type { SdkManifest } from "@/sdk/build/build.ts";
import { SDK_FILE } from "@/sdk/build/file_names.ts";

export interface SdkAssetsOptions {
  /** Directory holding the bundles and manifest.json, as written by `buildSdk()`. */
  dir?: string;
  /** Re-read manifest.json on every request (development, where the SDK is rebuilt on change). */
  reload?: boolean;
}

const STABLE_CACHE = "public, max-age=300, stale-while-revalidate=86400";
const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

/** Headers that let any site embed the script (classic, module, or with `crossorigin`). */
function scriptHeaders(
  cacheControl: string,
  etag: string,
  encoding: Encoding | null,
): Record<string, string> {
  return {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": cacheControl,
    "ETag": variantEtag(etag, encoding),
    "Vary": "Accept-Encoding",
    ...(encoding ? { "Content-Encoding": encoding } : {}),
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "X-Content-Type-Options": "nosniff",
  };
}

/** The SDK asset routes; mount with `app.route("/", sdkAssets())`. */
export function sdkAssets(options: SdkAssetsOptions = {}): Hono {
  const dir = options.dir ?? "static/build/sdk";
  const files = new Map<string, Uint8Array>(); // hashed names never change content
  let manifest: SdkManifest | null = null;

  async function readManifest(): Promise<SdkManifest | null> {
    if (manifest && !options.reload) return manifest;
    try {
      manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`)) as SdkManifest;
    } catch {
      manifest = null;
    }
    return manifest;
  }

  async function readHashed(name: string, encoding: Encoding | null = null) {
    if (!SDK_FILE.test(name)) return null;
    const file = encoding ? name + SUFFIX[encoding] : name;
    const cached = files.get(file);
    if (cached) return cached;
    try {
      const bytes = await Deno.readFile(`${dir}/${file}`);
      files.set(file, bytes);
      return bytes;
    } catch {
      return null;
    }
  }

  /** The bundle `name` in the best coding the request accepts that the build wrote. */
  async function negotiate(c: Context, name: string) {
    const accept = c.req.header("Accept-Encoding");
    const found = await acceptedVariant(accept, (encoding) => readHashed(name, encoding));
    if (found) return { bytes: found.variant, encoding: found.encoding };
    const bytes = await readHashed(name);
    return bytes ? { bytes, encoding: null } : null;
  }

  /** 200 with the bundle, or 304 when the client holds this variant already. */
  function send(c: Context, bytes: Uint8Array, headers: Record<string, string>) {
    if (etagMatches(c.req.header("If-None-Match"), headers.ETag)) {
      return c.body(null, 304, headers);
    }
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers);
  }

  const app = new Hono();

  const serveStable = (kind: "classic" | "esm") => async (c: Context) => {
    const current = await readManifest();
    const found = current ? await negotiate(c, current[kind]) : null;
    if (!current || !found) {
      return c.json({ kind: "unavailable", message: "the SDK has not been built" }, 503);
    }
    // The content hash in the file name is a strong validator for the stable URL.
    const etag = `"${current[kind].replace(/\.m?js$/, "")}"`;
    return send(c, found.bytes, scriptHeaders(STABLE_CACHE, etag, found.encoding));
  };

  app.get("/sdk/v1/playhead.js", serveStable("classic"));
  app.get("/sdk/v1/playhead.mjs", serveStable("esm"));

  app.get("/sdk/:file", async (c) => {
    const name = c.req.param("file");
    const found = await negotiate(c, name);
    if (!found) return c.json({ kind: "not_found", message: "no such SDK file" }, 404);
    const etag = `"${name.replace(/\.m?js$/, "")}"`;
    return send(c, found.bytes, scriptHeaders(IMMUTABLE_CACHE, etag, found.encoding));
  });

  return app;
}
