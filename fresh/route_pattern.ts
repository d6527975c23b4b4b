// Route file paths as URL patterns: `[id]` → `:id`, `[...rest]` → `:rest*`, `(group)` dropped,
// plus the ordering that makes static segments win, and param decoding.

export const isGroup = (segment: string): boolean => /^\(.+\)$/.test(segment);

/** File path (without extension) → URLPattern pathname. */
export function toPattern(rel: string): string {
  const segments = rel.split("/").filter((s) => !isGroup(s));
  if (segments.at(-1) === "index") segments.pop();
  const converted = segments.map((s) =>
    s.replace(/\[\.\.\.([A-Za-z_$][\w$]*)\]/g, ":$1*").replace(/\[([A-Za-z_$][\w$]*)\]/g, ":$1")
  );
  return "/" + converted.join("/");
}

/** Per segment: 0 static, 1 dynamic, 2 catch-all; static segments win over dynamic ones. */
export function rankOf(pattern: string): number[] {
  return pattern.split("/").slice(1).map((s) => s.endsWith("*") ? 2 : s.includes(":") ? 1 : 0);
}

export function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

export function decodeParams(groups: Record<string, string | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(groups)) {
    if (/^\d+$/.test(key)) continue; // unnamed groups
    try {
      params[key] = decodeURIComponent(value ?? "");
    } catch {
      params[key] = value ?? "";
    }
  }
  return params;
}
