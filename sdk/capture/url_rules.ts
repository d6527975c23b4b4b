// Which pages may be recorded: URL path globs (`*` any characters but `/`, `**` any characters,
// `?` one character but `/`; a run of stars is one `**`; a trailing `/**` also matches the folder
// itself). A page is recorded when no block glob matches its path and, for each non-empty allow
// list, one of its globs does. A glob is matched by one pass over the path that carries the set of
// glob positions reached, never a regular expression: a regex of many `*` backtracks (a 200-
// character glob took 10 s a match), this takes at most (path length) × (glob length + 1) steps.

export type PathRule = (pathname: string) => boolean;

/** A glob's parts: a character code, or one of the wildcards below. */
const ONE = -1; // `?`
const SEGMENT = -2; // `*`
const ANY = -3; // `**`
const SLASH = 47;

export interface Glob {
  parts: number[];
  /** Where a trailing `/**` starts, so the path may end before it (`/x/**` matches `/x`); else -1. */
  folder: number;
}

export function compileGlob(glob: string): Glob {
  const parts: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === "*") {
      let end = i;
      while (glob[end + 1] === "*") end++;
      parts.push(end > i ? ANY : SEGMENT);
      i = end;
    } else parts.push(glob[i] === "?" ? ONE : glob.charCodeAt(i));
  }
  const n = parts.length;
  return { parts, folder: n >= 2 && parts[n - 1] === ANY && parts[n - 2] === SLASH ? n - 2 : -1 };
}

/** Counts the steps of matches, for tests that hold the bound. */
export interface StepCount {
  steps: number;
}

/** Whether `glob` matches the whole of `path`. */
export function matchGlob(glob: Glob, path: string, count?: StepCount): boolean {
  const { parts } = glob;
  const n = parts.length;
  // `seen[i] === stamp`: position i is in the set being built for the current character.
  const seen = new Int32Array(n + 1).fill(-1);
  let stamp = 0;
  const reach = (set: number[], i: number) => {
    // A star may match nothing: reaching it reaches what follows it too.
    while (seen[i] !== stamp) {
      seen[i] = stamp;
      set.push(i);
      if (i === n || (parts[i] !== SEGMENT && parts[i] !== ANY)) break;
      i++;
    }
  };
  let current: number[] = [];
  reach(current, 0);
  for (let k = 0; k < path.length && current.length > 0; k++) {
    const c = path.charCodeAt(k);
    const next: number[] = [];
    stamp = k + 1;
    for (const i of current) {
      if (count) count.steps++;
      if (i === n) continue;
      const part = parts[i];
      if (part === ANY || (part === SEGMENT && c !== SLASH)) reach(next, i);
      else if (part === c || (part === ONE && c !== SLASH)) reach(next, i + 1);
    }
    current = next;
  }
  return seen[n] === stamp || (glob.folder >= 0 && seen[glob.folder] === stamp);
}

/** The rule of a block list and of allow lists (each narrows: a page must pass all of them). */
export function pathRule(block: string[], allow: string[][]): PathRule {
  const blocked = block.map(compileGlob);
  const allowed = allow.filter((list) => list.length > 0).map((list) => list.map(compileGlob));
  return (pathname) =>
    !blocked.some((glob) => matchGlob(glob, pathname)) &&
    allowed.every((list) => list.some((glob) => matchGlob(glob, pathname)));
}
