/** How many seeks each page is timed on. */
export const SEEKS = 20;

/** The same SEEKS targets (fractions of the session) for every page and run: a fixed-seed LCG. */
export function seekTargets(count = SEEKS): number[] {
  let state = 9;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  });
}
