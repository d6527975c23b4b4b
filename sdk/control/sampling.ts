// Whether sampling records a session: a stable hash of the session id against the rate, so every
// page load of one session decides the same way, with no state kept.

/** FNV-1a (32 bit) of the text, as a fraction in [0, 1). */
export function sessionFraction(sessionId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    hash ^= sessionId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 0x1_0000_0000;
}

/** True when a session with this id is recorded from its start at `rate` (0..1). */
export function isSampled(sessionId: string, rate: number): boolean {
  return sessionFraction(sessionId) < rate;
}
