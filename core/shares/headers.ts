// Headers of every answer a public link gives, found or not (docs/decisions.md "Shares"): the
// dashboard replay's policy (the recording's look loads, no framed document or object does), no
// Referer to anyone (the token is in the address), kept by no cache and by no search engine.
import { REPLAY_PAGE_CSP } from "@/recording/sanitize.ts";

export const SHARE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": REPLAY_PAGE_CSP,
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "cache-control": "no-store",
};
