// URLs' user and password (`https://user:pass@host/`) taken out of recorded text, so credentials
// a page put in an address never reach an error or a marker: the SDK strips them from what its
// console records (errors, their stacks) and ingest again where it builds markers. Shared with the
// SDK, so it stays free of dependencies.

/**
 * A scheme (at most 32 characters, so a long word costs no rescan), `://`, then the userinfo: what
 * comes before an `@` and no `/`, `?`, `#`, space or quote (which would end the host first).
 */
const USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@"'`<>\\]*@/gi;

/** `text` with every URL's user and password left out (`https://host/`). */
export function withoutUserinfo(text: string): string {
  return text.includes("@") ? text.replace(USERINFO, "$1") : text;
}
