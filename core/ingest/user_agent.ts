// A session's browser, OS and device class from its user agent, parsed by bowser (a
// kept library: user agents are too irregular for hand-written patterns). Parsing costs ~0.2–1 ms,
// and a service sees few distinct user agents, so the answers are remembered.
import Bowser from "bowser";
import { cutText } from "./limits.ts";

export type Device = "desktop" | "mobile" | "tablet";

export interface ClientInfo {
  browser: string | null;
  os: string | null;
  device: Device | null;
}

const CACHE_SIZE = 1000;
/**
 * A browser's or OS's name, a key of the sessions list's filter indexes: bowser names an unknown
 * browser by the user agent's first product, which can be as long as the user agent.
 */
export const CLIENT_NAME_CHARS = 64;
const cache = new Map<string, ClientInfo>();

/** The browser and OS names as bowser spells them (e.g. "Chrome", "macOS"); null when unknown. */
export function parseUserAgent(userAgent: string): ClientInfo {
  const known = cache.get(userAgent);
  if (known) return known;
  const info = parse(userAgent);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(userAgent, info);
  return info;
}

function parse(userAgent: string): ClientInfo {
  if (!userAgent.trim()) return { browser: null, os: null, device: null };
  const result = Bowser.parse(userAgent);
  const type = result.platform.type;
  return {
    browser: result.browser.name ? cutText(result.browser.name, CLIENT_NAME_CHARS) : null,
    os: result.os.name ? cutText(result.os.name, CLIENT_NAME_CHARS) : null,
    // TVs and bots are none of the three the filter offers.
    device: type === "desktop" || type === "mobile" || type === "tablet" ? type : null,
  };
}
