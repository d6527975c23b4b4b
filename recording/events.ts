// The recording's names beyond rrweb's event numbers (those are `EventType`, `IncrementalSource` and
// `NodeType` of @rrweb/types, imported from there): the plugins whose events a recording carries
// and the tags of the custom events the SDK records, which ingest, the player and the server read.

/** rrweb's console plugin (`@rrweb/rrweb-plugin-console-record`). */
export const CONSOLE_PLUGIN = "rrweb/console@1";
/** rrweb's network plugin, its requests kept by the SDK's network bundle (network.ts). */
export const NETWORK_PLUGIN = "rrweb/network@1";

/** Every tag the SDK gives a custom event starts so; ingest turns them into markers. */
export const SERVICE_TAG_PREFIX = "service:";
/** The SDK's last event of a page, at `pagehide`: the page has ended. */
export const PAGE_CLOSED_TAG = "service:page_closed";
/** The user the session is identified as (`identify()`), never shown on a public link. */
export const IDENTITY_TAG = "service:identity";
