// A `style` attribute changed the way rrweb's replayer changes it (`element.style.setProperty` and
// `removeProperty` from a recorded style diff), on its text: no CSSOM runs on the server.

/** rrweb's style diff: a property's new value, `[value, priority]`, or false to remove it. */
export type StyleDiff = Record<string, string | [string, string] | false>;

/** The declarations of a style text, split at `;` outside parentheses and quotes. */
function declarations(text: string): [string, string][] {
  const out: [string, string][] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  const take = (end: number) => {
    const declaration = text.slice(start, end);
    const colon = declaration.indexOf(":");
    if (colon > 0) {
      out.push([declaration.slice(0, colon).trim().toLowerCase(), declaration.slice(colon + 1)]);
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(depth - 1, 0);
    else if (c === ";" && depth === 0) {
      take(i);
      start = i + 1;
    }
  }
  take(text.length);
  return out;
}

/**
 * The style text after the diff. A property set again moves to the end, so that it wins over a
 * shorthand written before it, as the CSSOM's own longhands would.
 */
export function applyStyleDiff(style: string, diff: StyleDiff): string {
  const list = declarations(style);
  for (const [property, change] of Object.entries(diff)) {
    const name = property.trim().toLowerCase();
    const at = list.findIndex(([existing]) => existing === name);
    if (at >= 0) list.splice(at, 1);
    if (change === false) continue;
    const [value, priority] = Array.isArray(change) ? change : [change, ""];
    if (typeof value !== "string" || value.trim() === "") continue;
    list.push([name, ` ${value}${priority === "important" ? " !important" : ""}`]);
  }
  return list.map(([name, value]) => `${name}:${value};`).join(" ");
}
