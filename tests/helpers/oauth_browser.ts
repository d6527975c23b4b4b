// A minimal browser for redirect flows: keeps the app's cookies, sends requests for the app's
// origin to `app.request()` and everything else over the network, and follows redirects by hand.
import type { Requestable } from "./auth.ts";
import { APP_ORIGIN } from "./auth.ts";

export interface Hop {
  url: string;
  status: number;
  location: string | null;
  response: Response;
}

export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly app: Requestable, cookie?: string) {
    if (cookie) this.storeCookie(cookie);
  }

  /** The Cookie header the app would receive now. */
  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** One GET, as a top-level navigation; the app's Set-Cookie headers are kept. */
  async get(url: string): Promise<Hop> {
    const absolute = new URL(url, APP_ORIGIN);
    let response: Response;
    if (absolute.origin === APP_ORIGIN) {
      const headers: Record<string, string> = { "Sec-Fetch-Site": "cross-site" };
      if (this.cookies.size) headers.Cookie = this.cookieHeader;
      response = await this.app.request(absolute.pathname + absolute.search, { headers });
      for (const setCookie of response.headers.getSetCookie()) this.storeCookie(setCookie);
    } else {
      response = await fetch(absolute, { redirect: "manual" });
    }
    const location = response.headers.get("location");
    return {
      url: absolute.href,
      status: response.status,
      location: location ? new URL(location, absolute).href : null,
      response,
    };
  }

  /**
   * Follows redirects from `url` until a response that is not a redirect, or a redirect to an app
   * page outside /api/ (where a browser would render the page); returns every hop.
   */
  async follow(url: string, maxHops = 8): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    while (next && hops.length < maxHops) {
      const hop = await this.get(next);
      hops.push(hop);
      if (!hop.location || hop.status < 300 || hop.status >= 400) break;
      const target = new URL(hop.location);
      if (target.origin === APP_ORIGIN && !target.pathname.startsWith("/api/")) break;
      if (hop.response.body) await hop.response.body.cancel();
      next = hop.location;
    }
    return hops;
  }

  private storeCookie(setCookie: string) {
    const [pair, ...attributes] = setCookie.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attributes.some((a) => a.trim().toLowerCase() === "max-age=0");
    if (expired || !value) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Where the last hop sends the browser, as a path on the app (or the full URL elsewhere). */
export function finalLocation(hops: Hop[]): string | null {
  const location = hops.at(-1)?.location;
  if (!location) return null;
  const url = new URL(location);
  return url.origin === APP_ORIGIN ? url.pathname + url.search : url.href;
}
