// One colour per pathname, shared by the user page's timeline, activity chart and share bars: a
// pathname prefers the palette slot its name hashes to, so it keeps its colour across windows and
// users unless an earlier (more important) page on the same screen already holds that slot.

/** Distinct on light and dark backgrounds; the order of slots never changes. */
export const PALETTE = [
  "#4263eb", // blue
  "#f08c00", // orange
  "#2f9e44", // green
  "#e03131", // red
  "#ae3ec9", // purple
  "#1098ad", // cyan
  "#f06595", // pink
  "#a0683a", // brown
  "#74b816", // lime
  "#7048e8", // violet
  "#e8b600", // yellow
  "#0b7285", // deep teal
] as const;

/** Pages beyond the coloured ones, and the activity chart's "other" series. */
export const OTHER_COLOR = "#a5adbb";

export type PageColors = ReadonlyMap<string, string>;

/** FNV-1a: a cheap, stable hash of the pathname. */
function preferredSlot(pathname: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < pathname.length; i++) {
    hash = Math.imul(hash ^ pathname.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash % PALETTE.length;
}

/**
 * Colours for `pages`, most important first: each its own slot (the preferred one when free, else
 * the next free one); pages beyond the palette get none (they draw as "other").
 */
export function pageColors(pages: readonly string[]): PageColors {
  const colors = new Map<string, string>();
  const taken = new Set<number>();
  for (const page of pages) {
    if (colors.has(page) || taken.size === PALETTE.length) continue;
    let slot = preferredSlot(page);
    while (taken.has(slot)) slot = (slot + 1) % PALETTE.length;
    taken.add(slot);
    colors.set(page, PALETTE[slot]);
  }
  return colors;
}

export function colorOf(colors: PageColors, pathname: string | null): string {
  return (pathname !== null && colors.get(pathname)) || OTHER_COLOR;
}
