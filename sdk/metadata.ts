// Session metadata and navigation payloads, read from the page.

import type { SessionMetadata, UserIdentity } from "./types.ts";

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

/** The `service:url` payload: the new page's url and pathname. */
export function urlPayload(url: string): { url: string; pathname: string } {
  return { url, pathname: new URL(url).pathname };
}
