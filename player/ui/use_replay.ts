// The island's state: loads the session's events through the decoding worker, feeds them to the
// controller, follows an open session, and re-renders the page when anything it shows changes.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import { consoleEntries, type ConsoleEntry } from "./console_entries.ts";
import { networkEntries, type NetworkEntry } from "./network_entries.ts";
import { ReplayController } from "@/player/play/controller.ts";
import type { DecodeMessage } from "@/player/decode/decode_worker.ts";
import {
  followUrl,
  type LoadStep,
  mayJump,
  momentSteps,
  openingPlan,
} from "@/player/load/loading_plan.ts";
import { EventLoader } from "@/player/load/loader.ts";
import { Recording } from "@/player/load/recording.ts";
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
      growing: source.liveForMs > 0,
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
      // A moment's first batch ends the hole before it.
      if (message.kind === "batch" && step?.kind === "moment" && !stepStarted) {
        stepStarted = true;
        player.hole.endsAt(message.batch.firstTimestamp - source.startedAt);
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
    const plan = { base: location.href, ...source };
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const follow = async () => {
      if (stopped) return;
      await loader.load(followUrl(plan, recording.lastBatchId), onDecoded);
      if (Date.now() > liveUntil) {
        player.sessionOver();
        return setLive(false);
      }
      timer = setTimeout(follow, LIVE_POLL_MS);
    };
    let steps = openingPlan(plan);
    let step: LoadStep | null = null;
    let stepStarted = false;
    let jumped = false;
    /**
     * A seek past what is decoded while the whole recording still streams in: the stream stops
     * (after the batch it is in) and that moment's batches come first, then the ones in between
     * (those decoded already are skipped by the decoder).
     */
    const jumpTo = (real: number) => {
      const state = { jumped, loading: !!step, planned: steps.length, ready: player.ready };
      if (!mayJump(plan, state)) return;
      jumped = true;
      player.hole.open(recording.loadedUntil);
      steps = momentSteps(plan, real);
      loader.abort();
    };
    (async () => {
      // The first request is the one the server's page preloaded (`firstEventsPath`).
      let early = true;
      while (steps.length > 0 && !stopped) {
        step = steps.shift()!;
        stepStarted = false;
        await loader.load(step.url, onDecoded, early);
        early = false;
        if (step.kind === "before") player.closeHole();
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
