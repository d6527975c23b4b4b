// A link's token: 32 random bytes (256 bits) as base64url, shown once; the database keeps only
// its SHA-256, so a leaked table opens no replay. A token is high-entropy, so one unsalted hash is
// enough to make it unrecoverable.
export const TOKEN_BYTES = 32;
/** What a token looks like: anything else is unknown without a database lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newShareToken(): string {
  return crypto.getRandomValues(new Uint8Array(TOKEN_BYTES))
    .toBase64({ alphabet: "base64url", omitPadding: true });
}

export async function hashShareToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
