// Structured logging: one JSON line per record, a `domain:entity:action[:state]` tag as
// the message and the details as properties.
import {
  configure,
  getConsoleSink,
  getLogger,
  jsonLinesFormatter,
  type LogRecord,
  type Sink,
} from "@logtape/logtape";
import type { LogLevel } from "@/config/env.ts";

const logger = getLogger(["playhead"]);

type Props = Record<string, unknown>;

/** The service's log: every call names a tag of docs/decisions.md "Logs", or a new one like them. */
export const log = {
  debug: (tag: string, props: Props = {}) => logger.debug(tag, props),
  info: (tag: string, props: Props = {}) => logger.info(tag, props),
  warn: (tag: string, props: Props = {}) => logger.warn(tag, props),
  error: (tag: string, props: Props = {}) => logger.error(tag, props),
  fatal: (tag: string, props: Props = {}) => logger.fatal(tag, props),
};

let plainLines = false;

/**
 * A plain line for the person at the terminal, beside the record that carries the same facts:
 * what development asks them to copy (the Playground key, a sign-in code). Printed only when
 * logging was set up with `plainLines`.
 */
export function say(text: string): void {
  if (plainLines) console.log(text);
}

/** Routes the service's records to stdout as JSON lines (and to extra sinks, e.g. in tests). */
export async function setupLogging(
  level: LogLevel,
  extraSinks: Sink[] = [],
  options: { plainLines?: boolean } = {},
): Promise<void> {
  plainLines = Boolean(options.plainLines) && level !== "silent";
  const sinks: Record<string, Sink> = {
    console: getConsoleSink({ formatter: jsonLinesFormatter }),
  };
  extraSinks.forEach((sink, i) => (sinks[`extra${i}`] = sink));
  const sinkNames = level === "silent" ? Object.keys(sinks).filter((n) => n !== "console") : [
    ...Object.keys(sinks),
  ];
  await configure({
    reset: true,
    sinks,
    loggers: [
      {
        category: ["playhead"],
        lowestLevel: level === "silent" ? "trace" : level === "warn" ? "warning" : level,
        sinks: sinkNames,
      },
      { category: ["logtape", "meta"], lowestLevel: "warning", sinks: sinkNames },
    ],
  });
}

/** A recorded log line, as tests inspect it. */
export interface CapturedLog {
  level: string;
  tag: string;
  props: Props;
}

/** Starts capturing the service's records in memory (console output follows `level`). */
export async function captureLogs(level: LogLevel = "silent"): Promise<CapturedLog[]> {
  const records: CapturedLog[] = [];
  const sink: Sink = (record: LogRecord) =>
    records.push({
      level: record.level,
      tag: String(record.rawMessage),
      props: record.properties as Props,
    });
  await setupLogging(level, [sink]);
  return records;
}
