// How deep a JSON body nests, read from its bytes before JSON.parse. Parsing is iterative, but
// what follows (validation, JSON.stringify of the events) recurses: a body of arrays nested
// 4,000,000 deep held a decode worker for 20–30 s. Real bodies nest far less: rrweb writes two
// levels per element (a node and its childNodes), the HTML parser stops nesting elements at 512,
// and the corpus' deepest recording nests 68 levels.

/** Nesting allowed in any JSON body: room for 900 elements inside each other. */
export const MAX_JSON_NESTING = 2000;

const QUOTE = 0x22, BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;

/**
 * Whether the UTF-8 JSON text `bytes` opens more than `max` arrays or objects inside each other
 * (brackets inside strings do not count). Stops at the first level past `max`.
 */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}
