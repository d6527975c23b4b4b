// The headers of every answer that shows a recording (docs/decisions.md "Replay" and "Shares"):
// the replay page's, a public link's page and events, and a frame served as its own document. The
// policies are the sanitizer's (recording/sanitize.ts): the recording's look loads, no object or
// framed document does, and no request of a recording names the page (no Referer).
import {
  REPLAY_FRAME_CSP,
  REPLAY_PAGE_CSP,
  REPLAY_PAGE_FRAMING_CSP,
} from "@/recording/sanitize.ts";

/**
 * The replay page's: both replay frames (the server's srcdoc and rrweb's about:blank) inherit its
 * policy and referrer policy. `framesOwnFrame`: the page loads its server frame from its own
 * address (a frame too large to carry), which its policy then allows.
 */
export function replayPageHeaders(framesOwnFrame = false): Record<string, string> {
  return {
    "content-security-policy": framesOwnFrame ? REPLAY_PAGE_FRAMING_CSP : REPLAY_PAGE_CSP,
    "referrer-policy": "no-referrer",
  };
}

/** Every answer of a public link, found or not: the replay page's, kept by no cache and by no
 * search engine (the token is in the address). */
export const SHARE_HEADERS: Readonly<Record<string, string>> = {
  ...replayPageHeaders(),
  "x-robots-tag": "noindex, nofollow",
  "cache-control": "no-store",
};

/** A replay page's frame as its own document (gzip as stored, or inflated): sandboxed by its own
 * policy even when opened on its own (an opaque origin: no script, cookie or storage). */
export function frameDocumentHeaders(gzip: boolean): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    ...(gzip ? { "content-encoding": "gzip" } : {}),
    "vary": "Accept-Encoding",
    "cache-control": "private, no-store",
    "content-security-policy": `${REPLAY_FRAME_CSP}; frame-ancestors 'self'; sandbox`,
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  };
}
