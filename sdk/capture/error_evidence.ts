// The evidence of a recorded error: the console plugin's `trace` of an error record cut to the
// page's own frames (not the SDK's, not a browser extension's), each URL without its query and
// fragment (they carry tokens, as page URLs do), bounded; and the top frame's source, line, column.
import type { RecordedEvent } from "@/sdk/types.ts";

export const MAX_FRAMES = 20;
export const FRAME_CHARS = 300;

/** `fn (file:line:col)` or `file:line:col`, as the plugin's stack parser writes a frame. */
const FRAME = /^(?:(.*) \()?(.+?):(\d*):(\d*)\)?$/;
const FOREIGN = /^(chrome|moz|safari(-web)?)-extension:/;

/** The SDK's own script: the file of the frame running this module. */
const OWN_FILE = frameOf(new Error().stack?.split("\n").find((l) => /:\d+:\d+/.test(l)) ?? "");

interface Frame {
  fn: string;
  file: string;
  line: number;
  column: number;
}

function frameOf(text: string): Frame | null {
  const m = FRAME.exec(text.trim().replace(/^at /, ""));
  if (!m) return null;
  return { fn: m[1] ?? "", file: m[2].replace(/[?#].*$/, ""), line: +m[3], column: +m[4] };
}

/** Adds the evidence to a console plugin record of level `error`; other events pass unchanged. */
export function withErrorEvidence(event: RecordedEvent): RecordedEvent {
  const data = event.data as { plugin?: string; payload?: Record<string, unknown> } | null;
  const log = data?.payload;
  if (data?.plugin !== "rrweb/console@1" || log?.level !== "error") return event;
  const frames = (Array.isArray(log.trace) ? log.trace : []).map((t) => frameOf(String(t)))
    .filter((f): f is Frame => f !== null && f.file !== OWN_FILE?.file && !FOREIGN.test(f.file))
    .slice(0, MAX_FRAMES);
  const top = frames[0];
  log.trace = frames.map((f) =>
    (f.fn ? `${f.fn} (${f.file}:${f.line}:${f.column})` : `${f.file}:${f.line}:${f.column}`)
      .slice(0, FRAME_CHARS)
  );
  if (top) Object.assign(log, { source: top.file, line: top.line, column: top.column });
  return event;
}
