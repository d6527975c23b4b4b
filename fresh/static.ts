// Serves `static/` and the islands build: content-hashed build output and `asset()` URLs get a
// year-long immutable cache, everything else a short cache revalidated with an ETag. Build output
// goes out as its precompressed `.br`/`.gz` sibling when the client accepts one.
import { extname, join, normalize, sep } from "node:path";
import { BUILD_URL_PREFIX, readBuildManifest } from "./build_manifest.ts";
import { COMPRESSIBLE_FILE, etagMatches, precompressedVariant, variantEtag } from "./encoding.ts";

export interface StaticOptions {
  staticDir: string;
  buildDir: string;
  basePath?: string;
  /** Always revalidate, and re-read the build manifest on every request. */
  dev?: boolean;
}

/** Answers a GET/HEAD for an existing file, or null so the caller can try the next handler. */
export type StaticHandler = (req: Request) => Promise<Response | null>;

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "public, max-age=60, must-revalidate";
export const DEV_CACHE = "no-cache";
/** esbuild's `[name]-[hash]` file names, also used by other builds into the build folder. */
const CONTENT_HASHED = /-[A-Z0-9]{8}\.(m?js|css|map)$/;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".webmanifest": "application/manifest+json",
};

export function createStaticHandler(options: StaticOptions): StaticHandler {
  const basePath = (options.basePath ?? "").replace(/\/$/, "");
  let hashed: Set<string> | null = null;
  const hashedFiles = async () => {
    if (!hashed || options.dev) {
      hashed = new Set((await readBuildManifest(options.buildDir))?.files ?? []);
    }
    return hashed;
  };

  return async (req) => {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const url = new URL(req.url);
    if (basePath !== "" && !url.pathname.startsWith(basePath + "/")) return null;
    const path = safePath(url.pathname.slice(basePath.length));
    if (path === null) return null;

    let file: string;
    let immutable = false;
    let built = false;
    if (path.startsWith(BUILD_URL_PREFIX)) {
      const rel = path.slice(BUILD_URL_PREFIX.length);
      file = join(options.buildDir, rel);
      immutable = (await hashedFiles()).has(rel) || CONTENT_HASHED.test(rel);
      built = true;
    } else {
      file = join(options.staticDir, path);
      immutable = url.searchParams.has("__frsh_c");
    }
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(file);
    } catch {
      return null;
    }
    if (!info.isFile) return null;

    // Files outside the build are left to the app's compression middleware.
    const negotiated = built && COMPRESSIBLE_FILE.test(file);
    const variant = negotiated
      ? await precompressedVariant(file, req.headers.get("accept-encoding"))
      : null;
    const stamp = `${info.size.toString(36)}-${(info.mtime?.getTime() ?? 0).toString(36)}`;
    const etag = variantEtag(`W/"${stamp}"`, variant?.encoding ?? null);
    const headers = new Headers({
      "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "cache-control": immutable ? IMMUTABLE : options.dev ? DEV_CACHE : REVALIDATE,
      etag,
    });
    if (negotiated) headers.set("vary", "Accept-Encoding");
    if (variant) headers.set("content-encoding", variant.encoding);
    if (etagMatches(req.headers.get("if-none-match"), etag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("content-length", String(variant?.size ?? info.size));
    if (req.method === "HEAD") return new Response(null, { status: 200, headers });
    const handle = await Deno.open(variant?.path ?? file, { read: true });
    return new Response(handle.readable, { status: 200, headers });
  };
}

/** Decoded, normalised URL path, or null for traversal attempts and dotfiles. */
function safePath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/");
  if (segments.some((s) => s === ".." || s.startsWith("."))) return null;
  const normalized = normalize(decoded);
  return normalized.startsWith("/") && !normalized.includes(`${sep}..`) ? normalized : null;
}
