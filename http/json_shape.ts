// The shape of a JSON body, read from its bytes before JSON.parse (http/body.ts parseJson):
// - how deep it nests. Parsing is iterative, but what follows (validation, JSON.stringify of the
//   events) recurses: a body of arrays nested 4,000,000 deep held a decode worker for 20–30 s.
//   Real bodies nest far less: rrweb writes two levels per element (a node and its childNodes),
//   the HTML parser stops nesting elements at 512, and the corpus' deepest recording nests 68.
// - how many arrays and objects it holds for its size. 9.9 MiB of `[],` parse to 3.4 million
//   arrays (~150 MB of heap per body); the corpus' densest 500 events hold one per 43 bytes.

/** Nesting allowed in any JSON body: room for 900 elements inside each other. */
export const MAX_JSON_NESTING = 2000;

/** Arrays and objects allowed per byte of body, past the first MIN_CONTAINERS: one per 12 bytes. */
export const MAX_CONTAINERS_PER_BYTE = 1 / 12;
const MIN_CONTAINERS = 65_536;

const QUOTE = 0x22, BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;

/** What is wrong with the shape of the UTF-8 JSON text `bytes`, or null (see above). */
export function jsonShapeProblem(bytes: Uint8Array): string | null {
  const allowed = Math.max(MIN_CONTAINERS, Math.floor(bytes.length * MAX_CONTAINERS_PER_BYTE));
  const problem = scan(bytes, MAX_JSON_NESTING, allowed);
  if (problem === "depth") {
    return `body nests arrays or objects deeper than ${MAX_JSON_NESTING} levels`;
  }
  if (problem === "count") {
    return `body holds more than ${allowed} arrays and objects (one per 12 bytes)`;
  }
  return null;
}

/** Whether `bytes` nests more than `max` arrays or objects inside each other. */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_NESTING): boolean {
  return scan(bytes, max, Infinity) === "depth";
}

/** Whether `bytes` opens more than `max` arrays and objects in all. */
export function containersOver(bytes: Uint8Array, max: number): boolean {
  return scan(bytes, Infinity, max) === "count";
}

/**
 * One pass over the UTF-8 JSON text `bytes` (brackets inside strings do not count): "depth" at the
 * first level past `maxDepth`, "count" at the first array or object past `maxCount`, else null.
 */
function scan(bytes: Uint8Array, maxDepth: number, maxCount: number): "depth" | "count" | null {
  let depth = 0;
  let count = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return "depth";
      if (++count > maxCount) return "count";
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return null;
}
