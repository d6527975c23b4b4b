// Content codings: which one a request accepts, the files and types worth compressing, and the
// precompressed variants (`x.js.br`, `x.js.gz`) the build writes beside its output.
import { negotiate } from "@fastify/accept-negotiator";

export type Encoding = "br" | "gzip";
/** In order of preference: brotli is smaller at the same cost (bench/service/compression.ts). */
export const ENCODINGS: readonly Encoding[] = ["br", "gzip"];
export const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };

/** Text formats the build precompresses: scripts, styles, source maps, JSON, SVG, HTML. */
export const COMPRESSIBLE_FILE = /\.(m?js|css|map|json|svg|html|txt)$/;

/** The preferred coding among `offered` that an `Accept-Encoding` header allows, or null. */
export function acceptedEncoding(
  header: string | null | undefined,
  offered: readonly Encoding[] = ENCODINGS,
): Encoding | null {
  if (!header || offered.length === 0) return null;
  return negotiate(header.toLowerCase(), offered as Encoding[]) as Encoding | null;
}

/** The ETag of an encoded variant: distinct for each coding, derived from the identity one. */
export function variantEtag(etag: string, encoding: Encoding | null): string {
  return encoding ? etag.replace(/"$/, `-${encoding}"`) : etag;
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/**
 * The coding the client prefers among those `load` finds a variant for (a missing variant falls
 * back to the next coding), with that variant; null when the identity is to be sent.
 */
export async function acceptedVariant<T>(
  acceptEncoding: string | null | undefined,
  load: (encoding: Encoding) => Promise<T | null>,
): Promise<{ encoding: Encoding; variant: T } | null> {
  let offered = [...ENCODINGS];
  for (let encoding = acceptedEncoding(acceptEncoding, offered); encoding;) {
    const variant = await load(encoding);
    if (variant !== null) return { encoding, variant };
    offered = offered.filter((e) => e !== encoding);
    encoding = acceptedEncoding(acceptEncoding, offered);
  }
  return null;
}

export interface Variant {
  encoding: Encoding;
  path: string;
  size: number;
}

/** The precompressed sibling of `file` to send, or null to send the file itself. */
export async function precompressedVariant(
  file: string,
  acceptEncoding: string | null | undefined,
): Promise<Variant | null> {
  const found = await acceptedVariant(acceptEncoding, async (encoding) => {
    const info = await Deno.stat(file + SUFFIX[encoding]).catch(() => null);
    return info?.isFile ? info.size : null;
  });
  return found &&
    { encoding: found.encoding, path: file + SUFFIX[found.encoding], size: found.variant };
}
