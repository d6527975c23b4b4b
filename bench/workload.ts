// The two request mixes the benchmark replays, and their bodies: gzipped per simulated session
// (each with a fresh UUID) before the clock starts, so the load generator only sends bytes.
import { bodyParts } from "@/sdk/send/encoded_event.ts";
import {
  type BatchTemplate,
  cutSession,
  listRecordings,
  loadRecording,
  SDK_FLUSH_AT_EVENTS,
  SDK_FLUSH_INTERVAL_MS,
} from "./corpus_batches.ts";

export interface SessionTemplate {
  recording: string;
  batches: BatchTemplate[];
}

export interface Workload {
  name: string;
  description: string;
  sessions: SessionTemplate[];
}

/** One simulated session, ready to send in order. */
export interface PreparedSession {
  sessionId: string;
  bodies: Uint8Array<ArrayBuffer>[];
  eventCounts: number[];
}

/**
 * corpus: every recording, cut with the SDK's defaults (flush every 60 s or at 2,000 buffered
 * events, ≤ 500 per request): 9 requests of 0.3–16.5 MB of JSON, the heavy end of real traffic.
 * light: TodoMVC cut as by an SDK configured with flushInterval 5 s: 11 requests of 1–90 KB,
 * the common shape of an interactive page's traffic.
 */
export async function loadWorkloads(): Promise<Workload[]> {
  const corpus: SessionTemplate[] = [];
  for (const recording of await listRecordings()) {
    const events = await loadRecording(recording);
    corpus.push({
      recording,
      batches: cutSession(events, {
        flushIntervalMs: SDK_FLUSH_INTERVAL_MS,
        flushAtEvents: SDK_FLUSH_AT_EVENTS,
      }),
    });
  }
  // Lightest first, so a short run (--smoke) still covers several recordings quickly.
  corpus.sort((a, b) => weight(a) - weight(b));
  const todomvc = await loadRecording("todomvc-react");
  const light = [{
    recording: "todomvc-react",
    batches: cutSession(todomvc, { flushIntervalMs: 5_000, flushAtEvents: SDK_FLUSH_AT_EVENTS }),
  }];
  return [
    {
      name: "light",
      description: "todomvc-react, flushInterval 5 s: 11 requests/session, 1–90 KB JSON",
      sessions: light,
    },
    {
      name: "corpus",
      description: "all 5 recordings, SDK defaults (60 s / 2,000 events, ≤ 500 per request)",
      sessions: corpus,
    },
  ];
}

function weight(session: SessionTemplate): number {
  return session.batches.reduce((n, b) => n + JSON.stringify(b.events).length, 0);
}

export function metadataFor(recording: string) {
  return {
    url: `http://127.0.0.1:8000/${recording}/`,
    referrer: "",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) " +
      "HeadlessChrome/156.0.0.0 Safari/537.36",
    screenWidth: 1280,
    screenHeight: 800,
    language: "en-US",
  };
}

const encoder = new TextEncoder();

export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A body as the SDK sends it (sdk/send/transport.ts): its parts (`bodyParts`) gzipped one by one
 * with CompressionStream, the members concatenated.
 */
export async function sdkBody(parts: string[]): Promise<Uint8Array<ArrayBuffer>> {
  const members = await Promise.all(parts.map((part) => gzipBytes(encoder.encode(part))));
  return new Uint8Array(await new Blob(members).arrayBuffer());
}

/** Builds `count` sessions cycling through the workload's recordings. */
export async function prepareSessions(
  workload: Workload,
  count: number,
): Promise<PreparedSession[]> {
  // The JSON of the events is the same for every session; only sessionId changes.
  const texts = workload.sessions.map((s) =>
    s.batches.map((b) => ({
      events: JSON.stringify(b.events),
      metadata: b.withMetadata ? metadataFor(s.recording) : undefined,
    }))
  );
  const prepared: PreparedSession[] = [];
  for (let i = 0; i < count; i++) {
    const index = i % workload.sessions.length;
    const sessionId = crypto.randomUUID();
    const bodies = await Promise.all(
      texts[index].map(({ events, metadata }) =>
        sdkBody(bodyParts(sessionId, null, events, metadata))
      ),
    );
    prepared.push({
      sessionId,
      bodies,
      eventCounts: workload.sessions[index].batches.map((b) => b.events.length),
    });
  }
  return prepared;
}

/** Requests per session, averaged over the workload's recordings. */
export function meanBatchesPerSession(workload: Workload): number {
  const total = workload.sessions.reduce((n, s) => n + s.batches.length, 0);
  return total / workload.sessions.length;
}
