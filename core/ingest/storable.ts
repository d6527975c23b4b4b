// Text the SDK sends is whatever the page held: an emoji cut in half leaves a lone surrogate, and
// a NUL is an ordinary JavaScript character. PostgreSQL stores neither in text or jsonb, so every
// value bound for those columns is made storable here; the events themselves are
// stored byte-exact in the batch blob and never pass through this.

/** Nesting allowed in traits and marker payloads; deeper is a 400, not a database error. */
export const MAX_JSON_DEPTH = 64;

/** Lone surrogates become U+FFFD, NULs are dropped. */
export function storableText(text: string): string {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed();
  return wellFormed.includes("\0") ? wellFormed.replaceAll("\0", "") : wellFormed;
}

/** The path (keys and indexes) of the first value nested deeper than `maxDepth`, or null. */
export function tooDeepPath(value: unknown, maxDepth = MAX_JSON_DEPTH): (string | number)[] | null {
  const pending: Array<[unknown, (string | number)[]]> = [[value, []]];
  while (pending.length) {
    const [item, path] = pending.pop()!;
    if (!item || typeof item !== "object") continue;
    if (path.length >= maxDepth) return path;
    const entries = Array.isArray(item) ? item.entries() : Object.entries(item);
    for (const [key, child] of entries) {
      if (child && typeof child === "object") pending.push([child, [...path, key]]);
    }
  }
  return null;
}

/** A copy of a JSON value (already within MAX_JSON_DEPTH) with every key and string storable. */
export function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (!value || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(storableJson);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[storableText(key)] = storableJson(child);
  return out;
}
