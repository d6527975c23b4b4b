// The island's state: loads the session's events through the decoding worker, feeds them to the
// controller, follows an open session, and re-renders the page when anything it shows changes.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import { consoleEntries, type ConsoleEntry } from "./console_entries.ts";
import { networkEntries, type NetworkEntry } from "./network_entries.ts";
import { ReplayController } from "./controller.ts";
import type { DecodeMessage } from "./decode_worker.ts";
import { firstEventsPath } from "./events_url.ts";
import { EventLoader } from "./loader.ts";
import { Recording } from "./recording.ts";
import type { Size } from "./viewport.ts";

/** How often a session that can still grow is asked for new batches. */
export const LIVE_POLL_MS = 3_000;

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
  const [live, setLive] = useState(source.liveForMs > 0);
  const recording = useMemo(() => new Recording(source.startedAt), []);
  const logs = useRef<ConsoleEntry[]>([]);
  const requests = useRef<NetworkEntry[]>([]);
  const [controller, setController] = useState<ReplayController | null>(null);

  useEffect(() => {
    let frame = 0;
    const rerender = (userAction = false) => {
      cancelAnimationFrame(frame);
      if (userAction) setVersion((v) => v + 1);
      else frame = requestAnimationFrame(() => setVersion((v) => v + 1));
    };
    // Opening at a moment: the batches from its last full snapshot on come first, then the rest.
    const headFirst = source.startAt > 0;
    const player = new ReplayController({
      root: root.current!,
      recording,
      duration: source.duration,
      start: source.startAt,
      headFirst,
      onChange: rerender,
      onResize: setRecorded,
      onWait: (real) => jumpTo(real),
    });
    setController(player);
    const loader = new EventLoader();
    // Until then the session can still grow. A batch that ends later than the session did moves it
    // on by as much (both times are the visitor's clock; the viewer's may differ).
    let liveUntil = Date.now() + source.liveForMs;
    let sessionEnd = source.startedAt + source.duration;
    const onDecoded = (message: DecodeMessage) => {
      if (message.kind === "batch" && step?.first && !stepStarted) {
        stepStarted = true;
        step.first(message.batch.firstTimestamp - source.startedAt);
      }
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
        const end = message.batch.lastTimestamp;
        if (end > sessionEnd) {
          liveUntil = Math.min(liveUntil + end - sessionEnd, Date.now() + LIVE_WITHIN_MS);
          sessionEnd = end;
        }
        player.eventsAdded(added);
      } else if (message.kind === "corrupt") recording.addCorrupt(message.batch);
      else if (message.kind === "failed") {
        setFailure(`${message.status || "network"} ${message.message}`);
      }
      rerender();
    };
    const eventsUrl = new URL(
      source.eventsPath ?? firstEventsPath(source.sessionId, 0),
      location.href,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const follow = async () => {
      if (stopped) return;
      const url = new URL(eventsUrl);
      if (recording.lastBatchId) url.searchParams.set("after", recording.lastBatchId);
      await loader.load(url.href, onDecoded);
      if (Date.now() > liveUntil) return setLive(false);
      timer = setTimeout(follow, LIVE_POLL_MS);
    };
    const withParam = (name: string, value: number) => {
      const url = new URL(eventsUrl);
      url.searchParams.set(name, String(value));
      return url.href;
    };
    // The requests to make, in order. A moment is loaded from its last full snapshot on (`from`;
    // its first batch ends the hole before it), then the batches before it (`before`).
    interface Step {
      url: string;
      first?(real: number): void;
      done?(): void;
    }
    const momentFirst = (real: number): Step[] => [
      {
        url: new URL(firstEventsPath(source.sessionId, real), location.href).href,
        first: (start) => player.holeEndsAt(start),
      },
      { url: withParam("before", real), done: () => player.closeHole() },
    ];
    let plan: Step[] = headFirst ? momentFirst(source.startAt) : [{ url: eventsUrl.href }];
    let step: Step | null = null;
    let stepStarted = false;
    let jumped = false;
    /**
     * A seek past what is decoded while the whole recording still streams in: the stream stops
     * (after the batch it is in) and that moment's batches come first, then the ones in between
     * (those decoded already are skipped by the decoder).
     */
    const jumpTo = (real: number) => {
      if (jumped || headFirst || source.eventsPath || !step || plan.length > 0 || !player.ready) {
        return;
      }
      jumped = true;
      player.openHole(recording.loadedUntil);
      plan = momentFirst(real);
      loader.abort();
    };
    (async () => {
      // The first request is the one the server's page preloaded (`firstEventsPath`).
      let early = true;
      while (plan.length > 0 && !stopped) {
        step = plan.shift()!;
        stepStarted = false;
        await loader.load(step.url, onDecoded, early);
        early = false;
        step.done?.();
      }
      step = null;
      if (stopped) return;
      player.loadingDone();
      if (source.liveForMs > 0) timer = setTimeout(follow, LIVE_POLL_MS);
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      loader.stop();
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
    live,
  };
}
