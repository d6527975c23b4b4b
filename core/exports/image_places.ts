// Where a recording names its images, for the HTML export (docs/decisions.md "Exports"): the first
// reading of a session lists them (`imageSightings`), the second writes the fetched ones as data
// URLs in every place (`inlinedReading`). Pure functions of the events, in replay order, so either
// reading can run wherever the cut runs; the fetching is core/exports/inline_images.ts's.
import { EventType } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import { type CutSource, type EventWindow, windowEvents } from "@/core/shares/window_events.ts";
import { withPageAddresses } from "@/core/shares/addresses.ts";
import { AddressRewriter, isLocal } from "./offline_events.ts";

/** Every event of the whole session but custom ones and requests, as the HTML export holds them. */
export const ALL_EVENTS: EventWindow = { start: -Infinity, end: Infinity, showConsole: true };

/** An image's address as written, resolved against the page it was recorded on; else trimmed. */
function imageKey(address: string, base: string | null): { key: string; resolved: boolean } {
  try {
    return { key: new URL(address.trim(), base ?? undefined).href, resolved: true };
  } catch {
    return { key: address.trim(), resolved: false };
  }
}

/**
 * A reading of the events in replay order: page addresses cut, every address emptied but the
 * images `image` writes (given each one's key: its address resolved against the recorded page).
 */
function readingWith(image: (key: string, resolved: boolean) => string | null) {
  let base: string | null = null;
  const rewriter = new AddressRewriter(isLocal, (address) => {
    const { key, resolved } = imageKey(address, base);
    return image(key, resolved);
  });
  return (event: RecordedEvent): RecordedEvent => {
    const cut = withPageAddresses(event);
    const href = (cut.data as { href?: unknown } | null)?.href;
    if (cut.type === EventType.Meta && typeof href === "string") base = href || null;
    return rewriter.event(cut);
  };
}

/** The events with the images of `inlined` (data URLs by key) in their places, the rest emptied. */
export const inlinedReading = (inlined: Readonly<Record<string, string>>) =>
  readingWith((key) => Object.hasOwn(inlined, key) ? inlined[key] : null);

export interface Sighting {
  /** Its address resolved against the recorded page (`resolved`), or as written, trimmed. */
  key: string;
  resolved: boolean;
  /** The places it is written in: each gets the whole data URL. */
  places: number;
}

/** The images a first reading saw, and how many more it only counted. */
export interface ImageSightings {
  seen: Sighting[];
  unlisted: number;
}

/**
 * The images the export's events name, in the order first seen, each with its number of places;
 * past `listed` distinct ones, only counted. Run in the cut worker (core/shares/cut_job.ts).
 */
export async function imageSightings(
  batches: AsyncIterable<CutSource>,
  listed: number,
): Promise<ImageSightings> {
  const seen = new Map<string, Sighting>();
  let unlisted = 0;
  const read = readingWith((key, resolved) => {
    const sighting = seen.get(key);
    if (sighting) sighting.places++;
    else if (seen.size < listed) seen.set(key, { key, resolved, places: 1 });
    else unlisted++;
    return null;
  });
  for await (const _ of windowEvents(batches, ALL_EVENTS, read)) {
    // The events themselves are not kept: only what `read` saw.
  }
  return { seen: [...seen.values()], unlisted };
}
