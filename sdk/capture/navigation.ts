// Single-page navigation detection: pushState, replaceState and popstate that change the page
// (origin or path). Hash-only and query-only changes are not navigations.

import { type KeyValueStorage, safeGet } from "@/sdk/session_id.ts";

const PAGE_KEY = "playhead:page";

/** True when `next` is another page than `prev`: a different origin or pathname. */
export function isPageChange(prev: string, next: string): boolean {
  const a = new URL(prev);
  const b = new URL(next);
  return a.origin !== b.origin || a.pathname !== b.pathname;
}

type Listener = (url: string) => void;
const listeners = new Set<Listener>();
let patched = false;

/**
 * Calls `onNavigate(url)` after every history change; returns the unsubscribe function.
 * History is patched once and never unpatched, because other scripts may wrap it after us.
 */
export function watchHistory(onNavigate: Listener): () => void {
  if (!patched) {
    patched = true;
    for (const method of ["pushState", "replaceState"] as const) {
      const original = history[method];
      history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
        const result = original.apply(this, args);
        notify();
        return result;
      };
    }
    addEventListener("popstate", notify);
  }
  listeners.add(onNavigate);
  return () => listeners.delete(onNavigate);
}

function notify(): void {
  const url = location.href;
  for (const listener of listeners) {
    try {
      listener(url);
    } catch {
      // A recorder problem must never break the application's navigation.
    }
  }
}

/**
 * Remembers the last recorded page in sessionStorage, so a page load that continues a session on
 * another page is marked like a single-page navigation.
 */
export class PageTracker {
  #memory: string | null = null;

  constructor(private storage: KeyValueStorage | null) {}

  /** Remembers `url`; true when a page was recorded before and `url` is another page. */
  changedTo(url: string): boolean {
    const previous = safeGet(this.storage, PAGE_KEY) ?? this.#memory;
    this.#memory = url;
    try {
      this.storage?.setItem(PAGE_KEY, url);
    } catch {
      // In-memory tracking still covers single-page navigation.
    }
    return previous !== null && isPageChange(previous, url);
  }

  /** Forgets the last page (a cancelled session). */
  reset(): void {
    this.#memory = null;
    try {
      this.storage?.removeItem(PAGE_KEY);
    } catch {
      // Nothing to forget.
    }
  }
}
