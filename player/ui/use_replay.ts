// The island's state: loads the session's events through the decoding worker, feeds them to the
// controller, follows an open session, and re-renders the page when anything it shows changes.
// What is loading is the feed's (player/load/session_feed.ts `LoadingState`): `arriving` while
// batches asked for are still to come, `live` while the session can still grow.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { consoleEntries, type ConsoleEntry } from "./console_entries.ts";
import { networkEntries, type NetworkEntry } from "./network_entries.ts";
import { ReplayController } from "@/player/play/controller.ts";
import type { DecodeMessage } from "@/player/decode/decode_worker.ts";
import { type LoadingState, SessionFeed } from "@/player/load/session_feed.ts";
import { Recording, type Size } from "@/player/load/recording.ts";

export interface ReplaySource {
  sessionId: string;
  /** Session start, epoch ms. */
  startedAt: number;
  duration: number;
  eventCount: number;
  /** How much longer the session can still grow, as the server saw it (0: it cannot). */
  liveForMs: number;
  /** Real offset to open at. */
  startAt: number;
  /**
   * Where the whole recording is fetched from instead of the session's events endpoint (a public
   * link's, or an export's): one request, no jump ahead to a moment.
   */
  eventsPath?: string;
}

export function useReplay(source: ReplaySource) {
  const root = useRef<HTMLDivElement>(null);
  const [, setVersion] = useState(0);
  const [recorded, setRecorded] = useState<Size>({ width: 0, height: 0 });
  const [failure, setFailure] = useState<string | null>(null);
  const recording = useMemo(() => new Recording(source.startedAt), []);
  const logs = useRef<ConsoleEntry[]>([]);
  const requests = useRef<NetworkEntry[]>([]);
  const [controller, setController] = useState<ReplayController | null>(null);
  const [loadingState, setLoadingState] = useState<LoadingState | null>(null);

  useEffect(() => {
    let frame = 0;
    const rerender = (userAction = false) => {
      cancelAnimationFrame(frame);
      if (userAction) setVersion((v) => v + 1);
      else frame = requestAnimationFrame(() => setVersion((v) => v + 1));
    };
    const onDecoded = (message: DecodeMessage) => {
      if (message.kind === "batch") {
        const added = recording.add(message.batch, message.events, message.skipped);
        const entries = consoleEntries(added, source.startedAt);
        if (entries.length) {
          logs.current = [...logs.current, ...entries].sort((a, b) => a.offset - b.offset);
        }
        const sent = networkEntries(added, source.startedAt);
        if (sent.length) {
          requests.current = [...requests.current, ...sent].sort((a, b) => a.offsetMs - b.offsetMs);
        }
        player.eventsAdded(added);
      } else if (message.kind === "corrupt") recording.addCorrupt(message.batch);
      else if (message.kind === "failed") {
        setFailure(`${message.status || "network"} ${message.message}`);
      }
      rerender();
    };
    // Opening at a moment: the batches from its last full snapshot on come first, then the rest.
    const feed = new SessionFeed({
      source: { base: location.href, ...source },
      recording,
      onDecoded,
      onLiveEnded: () => rerender(true),
    });
    const player = new ReplayController({
      root: root.current!,
      recording,
      loading: feed,
      duration: source.duration,
      start: source.startAt,
      onChange: rerender,
      onResize: setRecorded,
      onWait: (real) => feed.jumpTo(real),
    });
    setController(player);
    setLoadingState(feed);
    feed.start(player);
    return () => {
      feed.stop();
      player.destroy();
    };
  }, []);

  return {
    root,
    controller,
    recording,
    logs: logs.current,
    requests: requests.current,
    recorded,
    failure,
    /** Batches asked for are still to come (before the feed starts too). */
    arriving: loadingState?.arriving ?? true,
    /** The session can still grow: the page follows it. */
    live: loadingState?.growing ?? source.liveForMs > 0,
  };
}
