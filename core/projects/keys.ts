// Project keys: `sp_` + 32 hex characters from a CSPRNG, and their masked form.
// No imports: the capture SDK checks its apiKey option with the same pattern.

/** The one format of a project's public key; ingest refuses any other before a lookup. */
export const PUBLIC_KEY_PATTERN = /^sp_[0-9a-f]{32}$/;

export function generateProjectKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "sp_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `sp_` + first 4 hex + 24 bullets + last 4 hex (docs/decisions.md "Projects and keys"). */
export function maskProjectKey(key: string): string {
  return key.slice(0, 7) + "•".repeat(24) + key.slice(-4);
}
