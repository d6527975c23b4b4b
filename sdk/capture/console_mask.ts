// Console lines masked by the page's own text rules: a value the recording masks (an input's value
// while inputs are masked, a password's always, the text of a masked or blocked element and the
// inputs inside a blocked one) is masked where a
// console line or error message quotes it too, before the line leaves the page; and a URL's user
// and password (`http://user:pass@host/`) never leave it in a line or a stack.
import { withoutUserinfo } from "@/core/ingest/userinfo.ts";
import type { RecordedEvent } from "@/sdk/types.ts";

/** Shorter values are not looked for: "a" or "42" would mask half of every line. */
export const MIN_MASKED_CHARS = 3;
/** At most this many elements are read per scan, so a huge form cannot stall a log call. */
export const MAX_MASKED_SOURCES = 500;

export interface MaskRules {
  /** `privacyMaskInputs`: every input's value is masked (else passwords only). */
  maskInputs: boolean;
  /** The attribute marking elements whose text is masked. */
  maskAttribute: string;
  /** The attribute marking elements left out of the recording. */
  blockAttribute: string;
}

/** The masked values on the page now, longest first (a longer value holding a shorter one wins). */
export function maskedValues(doc: Document, rules: MaskRules): string[] {
  const texts = `[${rules.maskAttribute}], [${rules.blockAttribute}]`;
  const selector = rules.maskInputs
    ? `input, textarea, select, [contenteditable], ${texts}`
    : `input[type=password], ${texts}, [${rules.blockAttribute}] :is(input, textarea, select)`;
  const values = new Set<string>();
  const elements = doc.querySelectorAll<HTMLElement>(selector);
  for (let i = 0; i < elements.length && i < MAX_MASKED_SOURCES; i++) {
    const el = elements[i];
    const field = el as HTMLInputElement | HTMLSelectElement;
    const ownText = el.hasAttribute(rules.maskAttribute) || el.hasAttribute(rules.blockAttribute) ||
      el.isContentEditable;
    const found = ownText
      ? [el.textContent ?? ""]
      : el.localName === "select"
      ? [field.value, (field as HTMLSelectElement).selectedOptions?.[0]?.text ?? ""]
      : [field.value];
    for (const text of found) {
      const value = text.trim();
      if (value.length >= MIN_MASKED_CHARS) values.add(value);
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** Masks each value in a console record's arguments (JSON texts); other events pass unchanged. */
export function maskConsoleRecord(event: RecordedEvent, values: () => string[]): RecordedEvent {
  const data = event.data as { plugin?: string; payload?: { payload?: unknown } } | null;
  const args = data?.payload?.payload;
  if (data?.plugin !== "rrweb/console@1" || !Array.isArray(args)) return event;
  const masked = values();
  if (masked.length === 0) return event;
  data.payload!.payload = args.map((arg) => typeof arg === "string" ? maskText(arg, masked) : arg);
  return event;
}

function maskText(text: string, values: string[]): string {
  for (const value of values) {
    // The arguments are JSON: a value with quotes or backslashes appears escaped.
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      if (text.includes(form)) text = text.split(form).join("*".repeat(value.length));
    }
  }
  return text;
}

/** `maskedValues` read once per task: a loop of log calls shares one scan of the page. */
export function maskedValuesPerTask(read: () => string[]): () => string[] {
  let cached: string[] | null = null;
  return () => {
    if (cached) return cached;
    cached = read();
    setTimeout(() => (cached = null), 0);
    return cached;
  };
}

/** A console record's arguments and stack with URLs' credentials left out; other events unchanged. */
export function withoutConsoleUserinfo(event: RecordedEvent): RecordedEvent {
  const data = event.data as { plugin?: string; payload?: Record<string, unknown> } | null;
  const log = data?.payload;
  if (data?.plugin !== "rrweb/console@1" || !log) return event;
  for (const field of ["payload", "trace"]) {
    const lines = log[field];
    if (Array.isArray(lines)) {
      log[field] = lines.map((line) => typeof line === "string" ? withoutUserinfo(line) : line);
    }
  }
  return event;
}
