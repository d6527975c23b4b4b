// The recorded page's images in an exported replay (docs/decisions.md "Exports"): a first reading
// of the session finds the images its events name (an `<img>`'s `src`, a `poster`, the candidate a
// `srcset` picks, CSS `url()` and `image-set()` outside `@font-face`); the server fetches them
// through core/outbound/guarded_get.ts within IMAGE_LIMITS; the second reading writes each one that
// came as a data URL in every place it is named, while the file stays within EXPORT_MAX_BYTES. The
// rest are listed with why, for the file's notice.
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import { pageAddress } from "@/core/shares/addresses.ts";
import { guardedGet, type Refusal } from "@/core/outbound/guarded_get.ts";
import { type ImageSightings, imageSightings, type Sighting } from "./image_places.ts";

const MIB = 1024 * 1024;

export const IMAGE_LIMITS = {
  /** Distinct images fetched; the rest are listed as skipped. */
  count: 100,
  imageBytes: 2 * MIB,
  /** Image bytes fetched in all: none is started past it. */
  totalBytes: 16 * MIB,
  /** One image, its redirects included. */
  timeoutMs: 5_000,
  /** All of them: what is still fetching then fails, what has not started is skipped. */
  totalMs: 20_000,
  concurrency: 4,
  redirects: 3,
  /** Distinct image addresses remembered (and listed); more are only counted. */
  listed: 500,
};
export type ImageLimits = typeof IMAGE_LIMITS;

export type MissingReason =
  | "private"
  | "failed"
  | "too_large"
  | "not_image"
  | "unsupported"
  | "skipped";

export interface MissingImage {
  /** Cut to origin and path, as every address an export names ("Shares"). */
  address: string;
  reason: MissingReason;
  detail: string;
}

/** What the file says about its images. */
export interface ImageReport {
  inlined: number;
  missing: MissingImage[];
  /** Image addresses past `listed`, neither fetched nor named. */
  unlisted: number;
}

export interface ImageOptions {
  /** EXPORT_FETCH_ALLOW_HOSTS. */
  allowHosts: readonly string[];
  /** The bytes the images may add: what EXPORT_MAX_BYTES leaves after the stored events. */
  room: number;
  limits?: ImageLimits;
  signal?: AbortSignal;
}

const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/;
const REASONS: Record<Refusal, MissingReason> = {
  private: "private",
  unsupported: "unsupported",
  failed: "failed",
  too_large: "too_large",
  type: "not_image",
};

/** An address as the notice names it: at most 300 characters. */
const shown = (address: string) => address.length > 300 ? `${address.slice(0, 299)}…` : address;

type Fetched = { dataUrl: string } | { reason: MissingReason; detail: string };

/** Fetches the http(s) images, a few at once, within the count, bytes and time bounds. */
async function fetchAll(
  images: Sighting[],
  options: ImageOptions,
  limits: ImageLimits,
): Promise<Map<string, Fetched>> {
  const done = new Map<string, Fetched>();
  const time = AbortSignal.timeout(limits.totalMs);
  const signal = options.signal ? AbortSignal.any([options.signal, time]) : time;
  let next = 0, fetchedBytes = 0;
  const worker = async () => {
    while (next < images.length) {
      const image = images[next++];
      if (next > limits.count) {
        done.set(image.key, {
          reason: "skipped",
          detail: `an export fetches at most ${limits.count} images`,
        });
      } else if (signal.aborted || fetchedBytes >= limits.totalBytes) {
        const detail = signal.aborted
          ? `out of time (${limits.totalMs / 1000} s for all images)`
          : `the images fetched reached ${limits.totalBytes / MIB} MiB`;
        done.set(image.key, { reason: "skipped", detail });
      } else {
        const outcome = await guardedGet(image.key, {
          allowHosts: options.allowHosts,
          maxBytes: limits.imageBytes,
          timeoutMs: limits.timeoutMs,
          maxRedirects: limits.redirects,
          acceptType: (type) => IMAGE_TYPE.test(type),
          accept: "image/*",
          signal,
        });
        if (outcome.ok) {
          fetchedBytes += outcome.bytes.length;
          done.set(image.key, {
            dataUrl: `data:${outcome.type};base64,${outcome.bytes.toBase64()}`,
          });
        } else done.set(image.key, { reason: REASONS[outcome.reason], detail: outcome.detail });
      }
    }
  };
  await Promise.all(Array.from({ length: limits.concurrency }, worker));
  return done;
}

/**
 * Finds and fetches the images of a session (`batches`: its first reading): `inlined`, the data
 * URL of each one the file holds by its address (for `inlinedReading`), and the report.
 */
export async function inlineImages(batches: AsyncIterable<EventBatchOut>, options: ImageOptions) {
  const limits = options.limits ?? IMAGE_LIMITS;
  return await fetchImages(await imageSightings(batches, limits.listed), options);
}

/** As `inlineImages`, from a first reading made elsewhere (the cut worker's, html_file.ts). */
export async function fetchImages({ seen, unlisted }: ImageSightings, options: ImageOptions) {
  const limits = options.limits ?? IMAGE_LIMITS;
  const web = seen.filter((s) => s.resolved && /^https?:/i.test(s.key));
  const fetched = await fetchAll(web, options, limits);
  const inlined: Record<string, string> = {};
  const missing: MissingImage[] = [];
  let room = options.room;
  for (const sighting of seen) {
    const address = shown(sighting.resolved ? pageAddress(sighting.key) : sighting.key);
    const result: Fetched = fetched.get(sighting.key) ?? {
      reason: "unsupported",
      detail: sighting.resolved
        ? `not an http(s) address (${new URL(sighting.key).protocol})`
        : "not an address",
    };
    if ("reason" in result) {
      missing.push({ address, reason: result.reason, detail: result.detail });
      continue;
    }
    const cost = result.dataUrl.length * sighting.places;
    if (cost > room) {
      missing.push({
        address,
        reason: "too_large",
        detail: `over the room EXPORT_MAX_BYTES leaves (${sighting.places} × ` +
          `${result.dataUrl.length} bytes)`,
      });
      continue;
    }
    room -= cost;
    inlined[sighting.key] = result.dataUrl;
  }
  const report: ImageReport = { inlined: Object.keys(inlined).length, missing, unlisted };
  return { report, inlined };
}
