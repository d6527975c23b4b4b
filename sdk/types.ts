// Public and shared types of the Playhead capture SDK.
// Kept small on purpose: the rrweb event types are the contract with the replayer.

/** Options accepted by `Playhead.init()`. Only `apiKey` and `endpoint` are required. */
export interface PlayheadOptions {
  /** The project's public key, `sp_` followed by 32 hexadecimal characters. */
  apiKey: string;
  /** Base address of the Playhead service, e.g. `https://playhead.example.com`. */
  endpoint: string;
  /** Milliseconds between flushes of the event buffer. Default 60000. */
  flushInterval?: number;
  /** Buffered event count that triggers a flush before the interval elapses. Default 2000. */
  batchSize?: number;
  /** Capture console log/info/warn/error/debug calls with their arguments. Default true. */
  recordConsole?: boolean;
  /** Replace every input, textarea and select value (password and email included) with asterisks. Default true. */
  privacyMaskInputs?: boolean;
  /** Attribute whose element's text, and its descendants' text, becomes asterisks. Default `data-service-mask`. */
  privacyMaskAttribute?: string;
  /** Attribute whose element is replaced by an empty placeholder of the same size. Default `data-service-block`. */
  privacyBlockAttribute?: string;
  /** Replace every image, video and audio element with a placeholder. Default false. */
  privacyBlockMedia?: boolean;
  /** Start recording as soon as `init()` returns. Default true. */
  autoStart?: boolean;
  /** Record and buffer, but send nothing until `release()` (e.g. until consent). Default false. */
  hold?: boolean;
  // The project's recording settings come from the service; these may only narrow them.
  /** At most this share of sessions is recorded from its start (the lower rate wins). */
  sampleRate?: number;
  /** Send nothing for visits shorter than this (the longer wait wins). */
  minDurationMs?: number;
  /** More path globs of pages never recorded. */
  urlBlock?: string[];
  /** Only pages matching one of these globs (as well as the project's allow list) are recorded. */
  urlAllow?: string[];
  /** The project's triggers to keep (default: all of them). */
  triggers?: ("error" | "rage_click" | "dead_click")[];
  /** At most this much buffer before a trigger (the lower wins). */
  bufferMs?: number;
}

/** Options after defaults are applied and validation passed. */
export type ResolvedOptions = Required<PlayheadOptions>;

/** Recording state reported by `client.state`. */
export type RecorderState = "idle" | "recording" | "paused";

/** One rrweb event as it travels to the service: `type`, type-specific `data`, epoch-ms `timestamp`. */
export interface RecordedEvent {
  type: number;
  data: unknown;
  timestamp: number;
  [extra: string]: unknown;
}

/** Arbitrary JSON-compatible traits describing an identified user. */
export type Traits = Record<string, unknown>;

/** Identity of the visitor, attached to the session by the service. */
export interface UserIdentity {
  userId: string;
  traits: Traits;
}

/** Session metadata sent with the first batch of a page and again after `identify()`. */
export interface SessionMetadata {
  url: string;
  referrer: string;
  userAgent: string;
  screenWidth: number;
  screenHeight: number;
  language: string;
  userIdentity?: UserIdentity;
  /** Why the session is recorded, when a trigger started it, with the trigger's time. */
  recordingReason?: "error" | "rage_click" | "dead_click" | "manual";
  triggeredAt?: number;
}

/** Body of `POST {endpoint}/api/ingest`. */
export interface IngestBody {
  sessionId: string;
  events: RecordedEvent[];
  metadata?: SessionMetadata;
  /** The page that recorded the events, and the first one's number in its sequence. */
  pageId?: string;
  seq?: number;
}
