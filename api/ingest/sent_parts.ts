// An ingest body read through its parts, as the SDK sends it (sdk/send/encoded_event.ts
// `bodyParts`): gzip members of `{"events":`, the events' array and the rest of the body. Each byte
// is parsed once, the events' text alone and the rest alone, and the events' member can be stored
// as it came (docs/decisions.md "Ingest"). A body of any other shape is read whole, as before.
import { type GzipMember, memberAt, sameBytes } from "@/http/gzip_members.ts";
import { jsonShapeProblem } from "@/http/json_shape.ts";
import { parseJsonText } from "@/http/body.ts";

const HEAD = new TextEncoder().encode('{"events":');
const COMMA = 0x2c, CLOSE = 0x7d;

/** A body's JSON and its events' member, which inflates to exactly the events' text in the body. */
export interface SentParts {
  json: { events: unknown };
  events: GzipMember;
}

/**
 * `body` (inflated from `gzip`) read through its members, or null when it is not made of them:
 * then, and whenever its JSON is not valid, it is for `parseJson` to read whole and answer for.
 */
export function sentParts(gzip: Uint8Array, body: Uint8Array): SentParts | null {
  if (!sameBytes(body.subarray(0, HEAD.length), HEAD)) return null;
  const head = memberAt(gzip, 0, HEAD.length);
  if (!head || !sameBytes(head.inflated, HEAD)) return null;
  const events = memberAt(gzip, head.gzip.length, body.length - HEAD.length);
  const end = HEAD.length + (events?.inflated.length ?? 0);
  if (!events || !sameBytes(body.subarray(HEAD.length, end), events.inflated)) return null;
  // The rest holds the body's other members (`,"sessionId":…}`) or closes it (`}`).
  const rest = body.subarray(end);
  if (rest[0] !== COMMA && !(rest.length === 1 && rest[0] === CLOSE)) return null;
  if (jsonShapeProblem(body)) return null;
  try {
    const list = parseJsonText(events.inflated);
    const others = rest.length === 1 ? {} : parseJsonText(rest.subarray(1), "{");
    // A second `events` in the rest would be the body's (JSON's last one wins): read it whole.
    if (!isObject(others) || Object.hasOwn(others, "events")) return null;
    return { json: { events: list, ...others }, events };
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether the validated events keep each event's members in the order they were sent: the events'
 * JSON (`JSON.stringify`) is then the text sent, wherever the SDK wrote it (it writes no other).
 */
export function inOrderSent(sent: readonly unknown[], validated: readonly object[]): boolean {
  if (sent.length !== validated.length) return false;
  for (let i = 0; i < sent.length; i++) {
    const a = Object.keys(sent[i] as object);
    const b = Object.keys(validated[i]);
    if (a.length !== b.length) return false;
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  }
  return true;
}
