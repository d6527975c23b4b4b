// Avatars the service draws itself (docs/decisions.md "Account"): a symmetric 5×5 identicon in one
// hue, derived only from the seed, so no third-party image host is ever contacted.

export const AVATAR_SEED_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

export function avatarUrl(appUrl: string, seed: string): string {
  return `${appUrl}/api/avatars/${seed}.svg`;
}

/** The SVG for a seed: the same seed always gives the same picture. */
export function renderAvatar(seed: string): string {
  const next = prng(seed);
  const hue = Math.floor(next() * 360);
  const cells: string[] = [];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if (next() < 0.5) continue;
      cells.push(`<rect x="${x}" y="${y}" width="1" height="1"/>`);
      if (x < 2) cells.push(`<rect x="${4 - x}" y="${y}" width="1" height="1"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 7 7" width="80" height="80" ` +
    `shape-rendering="crispEdges"><rect x="-1" y="-1" width="7" height="7" ` +
    `fill="hsl(${hue} 55% 92%)"/><g fill="hsl(${hue} 60% 42%)">${cells.join("")}</g></svg>`;
}

/** A small seeded generator (FNV-1a hash into xorshift32): stable across runtimes. */
function prng(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let state = h >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}
