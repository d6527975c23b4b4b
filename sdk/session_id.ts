// The session id: a UUID kept in sessionStorage so reloads and page-to-page navigation in one
// browser tab continue one recorded session.

const SESSION_KEY = "playhead:session";

/** Storage subset the SDK uses; sessionStorage in the browser, a Map-backed fake in tests. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Returns the tab's session id, creating and storing one when none (or a malformed one) exists. */
export function getSessionId(storage: KeyValueStorage | null): string {
  const stored = safeGet(storage, SESSION_KEY);
  if (stored && UUID_PATTERN.test(stored)) return stored;
  return newSessionId(storage);
}

/** Replaces the tab's session id with a fresh one (after cancel) and returns it. */
export function newSessionId(storage: KeyValueStorage | null): string {
  const id = uuidV4();
  try {
    storage?.setItem(SESSION_KEY, id);
  } catch {
    // Storage full or denied: the id still lives for this page.
  }
  return id;
}

/** A random version 4 UUID. `crypto.randomUUID` exists only in secure contexts, so fall back. */
export function uuidV4(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20)
  }`;
}

/**
 * sessionStorage as one project key's SDK sees it (each name ends in `@<apiKey>`: two keys on one
 * origin, staging and production or two tenants, share no session, page or sampling decision), or
 * null when the page may not use it (sandboxed iframes, privacy modes).
 */
export function browserSessionStorage(apiKey: string): KeyValueStorage | null {
  try {
    const s = globalThis.sessionStorage;
    s.getItem(SESSION_KEY);
    const name = (key: string) => `${key}@${apiKey}`;
    return {
      getItem: (key) => s.getItem(name(key)),
      setItem: (key, value) => s.setItem(name(key), value),
      removeItem: (key) => s.removeItem(name(key)),
    };
  } catch {
    return null;
  }
}

export function safeGet(storage: KeyValueStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
