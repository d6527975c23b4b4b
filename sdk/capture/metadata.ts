// Session metadata and navigation payloads, read from the page.

import { cutText, MARKER_TEXT_CHARS, PATHNAME_CHARS, URL_CHARS } from "@/core/ingest/limits.ts";
import { logError } from "@/sdk/log.ts";
import type { SessionMetadata, Traits, UserIdentity } from "@/sdk/types.ts";

/**
 * Metadata for `startUrl`, truncated to the service's limits so an odd page can never get every
 * batch rejected.
 */
export function pageMetadata(startUrl: string, identity?: UserIdentity): SessionMetadata {
  const metadata: SessionMetadata = {
    url: startUrl.slice(0, 8192),
    referrer: document.referrer.slice(0, 8192),
    userAgent: navigator.userAgent.slice(0, 2048),
    screenWidth: Math.round(screen.width),
    screenHeight: Math.round(screen.height),
    language: (navigator.language ?? "").slice(0, 64),
  };
  if (identity) metadata.userIdentity = identity;
  return metadata;
}

/** The `service:url` payload: the new page's url and pathname, cut to the service's bounds. */
export function urlPayload(url: string): { url: string; pathname: string } {
  return {
    url: cutText(url, URL_CHARS),
    pathname: cutText(new URL(url).pathname, PATHNAME_CHARS),
  };
}

/** `identify()`'s arguments as an identity with bounded traits, or null (said in the console). */
export function identityOf(userId: unknown, traits: unknown): UserIdentity | null {
  if (typeof userId !== "string" || userId.trim() === "" || userId.length > 256) {
    logError("identify(userId, traits) needs a userId string of 1 to 256 characters");
    return null;
  }
  if (typeof traits !== "object" || traits === null || Array.isArray(traits)) {
    logError("identify(userId, traits): traits must be a plain object");
    return null;
  }
  return { userId, traits: boundedTraits(traits as Traits) };
}

/** Traits with each text value cut to the service's bound, as it would store them. */
export function boundedTraits(traits: Traits): Traits {
  const bounded: Traits = {};
  for (const [key, value] of Object.entries(traits)) {
    bounded[key] = typeof value === "string" ? cutText(value, MARKER_TEXT_CHARS) : value;
  }
  return bounded;
}
