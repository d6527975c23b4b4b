// Island props: checked to be plain JSON values, then embedded in HTML so that no string value can
// close the surrounding <script> element or change how the page parses.
import { isValidElement } from "preact";

/** Throws a clear error naming the island and the offending prop path if `value` is not JSON. */
export function assertJsonProps(island: string, props: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(props)) {
    // Optional props left undefined are fine: JSON drops them and the island sees them missing.
    if (value === undefined) continue;
    const problem = findNonJson(value, `props.${key}`, []);
    if (problem) {
      throw new TypeError(
        `Island "${island}": ${problem}. Island props must be JSON values (string, finite number, ` +
          `boolean, null, arrays and plain objects); pass dates as ISO strings and keep ` +
          `functions and JSX children out of island props.`,
      );
    }
  }
}

function findNonJson(value: unknown, path: string, seen: object[]): string | null {
  switch (typeof value) {
    case "string":
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(value) ? null : `${path} is ${value}, which JSON cannot represent`;
    case "object":
      break;
    default:
      return `${path} is a ${typeof value}`;
  }
  if (value === null) return null;
  if (seen.includes(value)) return `${path} is a circular reference`;
  if (isValidElement(value)) return `${path} is a JSX element`;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    const inner = [...seen, value];
    for (let i = 0; i < value.length; i++) {
      if (value[i] === undefined) return `${path}[${i}] is undefined`;
      const problem = findNonJson(value[i], `${path}[${i}]`, inner);
      if (problem) return problem;
    }
    return null;
  }
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "object";
    return `${path} is a ${name}`;
  }
  const inner = [...seen, value];
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    const problem = findNonJson(child, `${path}.${key}`, inner);
    if (problem) return problem;
  }
  return null;
}

/**
 * JSON for a `<script type="application/json">` body: `<`, `>` and `&` are escaped as \u00XX so
 * `</script>` or `<!--` inside a string cannot end the element; U+2028/9 for old JS parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
