// One colour per pathname, shared by the user page's timeline, activity chart and share bars: a
// pathname prefers the palette slot its name hashes to, so it keeps its colour across windows and
// users unless an earlier (more important) page on the same screen already holds that slot.

/** Tableau 10 (grey swapped for navy: grey is "other"); the order of slots never changes. */
export const PALETTE = [
  "#4e79a7", // blue
  "#f28e2b", // orange
  "#59a14f", // green
  "#e15759", // red
  "#b07aa1", // purple
  "#76b7b2", // teal
  "#edc948", // yellow
  "#ff9da7", // pink
  "#9c755f", // brown
  "#2f4b7c", // navy
] as const;

/** Pages beyond the coloured ones, and the activity chart's "other" series. */
export const OTHER_COLOR = "#bab0ac";

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
