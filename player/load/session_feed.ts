// Feeds a session's batches to the player in the loading plan's order (loading_plan.ts): the
// opening requests, one jump to a moment a seek asks for past what streams in, then, while the
// session can still grow, a poll for what came after (until its page says it closed, or nothing
// comes for LIVE_WITHIN_MS). One phase at a time: opening, following, done, stopped.
// It owns the player's loading state (`LoadingState`): whether batches asked for are still to come,
// whether the session can still grow, and the loading hole a jump leaves; the controller and the
// island read it.
import { closesPage, LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import type { DecodeMessage } from "@/player/decode/decode_worker.ts";
import { LoadingHole } from "./loading_hole.ts";
import { followUrl, type LoadStep, mayJump, momentSteps, openingPlan } from "./loading_plan.ts";
import type { PlanSource } from "./loading_plan.ts";
import { EventLoader } from "./loader.ts";

/** How often a session that can still grow is asked for new batches. */
export const LIVE_POLL_MS = 3_000;

export type FeedPhase = "opening" | "following" | "done" | "stopped";

export interface FeedSource extends PlanSource {
  /** Session start, epoch ms. */
  startedAt: number;
  duration: number;
  /** How much longer the session can still grow, as the server saw it (0: it cannot). */
  liveForMs: number;
}

/** What the player knows of its loading, read from the feed (the feed alone changes it). */
export interface LoadingState {
  /** Batches asked for are still to come: the recording is still arriving. */
  readonly arriving: boolean;
  /** The session can still grow: played to its end, the player waits live for more. */
  readonly growing: boolean;
  /** `real` lies in the loading hole: its events are not loaded while later ones are. */
  inHole(real: number): boolean;
  /** Every event stamped at or before `real` is decoded (none of it in the hole). */
  reaches(real: number): boolean;
}

/** The player the feed serves (the controller), told when the loading state changes. */
export interface FedPlayer {
  readonly ready: boolean;
  /** Every batch of the hole is in. */
  holeClosed(): void;
  /** Every batch asked for so far is in. */
  loadingDone(): void;
  /** The session stopped growing. */
  sessionOver(): void;
}

export interface FeedOptions {
  source: FeedSource;
  /** Where the recording stands: how far it is decoded, its last batch. */
  recording: { readonly loadedUntil: number; readonly lastBatchId: string | null };
  /** Every decoded message, after the feed has read what it needs from it. */
  onDecoded(message: DecodeMessage): void;
  /** The session can no longer grow: nothing more is asked for. */
  onLiveEnded(): void;
}

export class SessionFeed implements LoadingState {
  #phase: FeedPhase = "opening";
  #player: FedPlayer | null = null;
  /** Opened at a moment, everything before it is a hole until the moment's first batch is in. */
  #hole: LoadingHole;
  #loader = new EventLoader();
  #steps: LoadStep[];
  #step: LoadStep | null = null;
  #stepStarted = false;
  #jumped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // Until then the session can still grow. A batch that ends later than the session did moves it
  // on by as much (both times are the visitor's clock; the viewer's may differ).
  #liveUntil: number;
  #sessionEnd: number;
  /** The latest page end marker seen (epoch ms): at or after the session's end, it grows no more. */
  #closedAt = -Infinity;

  constructor(private readonly options: FeedOptions) {
    const { source } = options;
    this.#steps = openingPlan(source);
    this.#hole = new LoadingHole(source.startAt > 0);
    this.#liveUntil = Date.now() + source.liveForMs;
    this.#sessionEnd = source.startedAt + source.duration;
  }

  get phase(): FeedPhase {
    return this.#phase;
  }

  get arriving(): boolean {
    return this.#phase === "opening";
  }

  get growing(): boolean {
    return this.options.source.liveForMs > 0 && this.#phase !== "done";
  }

  inHole(real: number): boolean {
    return this.#hole.has(real);
  }

  reaches(real: number): boolean {
    return !this.#hole.has(real) && (!this.arriving || real <= this.options.recording.loadedUntil);
  }

  /**
   * Runs the opening requests for `player` (the first is the one the server's page preloaded),
   * then follows.
   */
  async start(player: FedPlayer) {
    this.#player = player;
    let early = true;
    while (this.#steps.length > 0 && this.#phase === "opening") {
      this.#step = this.#steps.shift()!;
      this.#stepStarted = false;
      await this.#loader.load(this.#step.url, this.#onDecoded, early);
      early = false;
      if (this.#step.kind === "before") {
        this.#hole.close();
        player.holeClosed();
      }
    }
    this.#step = null;
    if (this.#phase !== "opening") return;
    this.#phase = this.options.source.liveForMs > 0 ? "following" : "done";
    player.loadingDone();
    if (this.#phase === "following") this.#timer = setTimeout(this.#follow, LIVE_POLL_MS);
  }

  /**
   * A seek past what is decoded while the whole recording still streams in: the stream stops
   * (after the batch it is in) and that moment's batches come first, then the ones in between
   * (those decoded already are skipped by the decoder).
   */
  jumpTo(real: number) {
    const { source, recording } = this.options;
    const state = {
      jumped: this.#jumped,
      loading: !!this.#step,
      planned: this.#steps.length,
      ready: this.#player?.ready ?? false,
    };
    if (this.#phase !== "opening" || !mayJump(source, state)) return;
    this.#jumped = true;
    this.#hole.open(recording.loadedUntil);
    this.#steps = momentSteps(source, real);
    this.#loader.abort();
  }

  stop() {
    this.#phase = "stopped";
    clearTimeout(this.#timer);
    this.#loader.stop();
  }

  #follow = async () => {
    const { source, recording } = this.options;
    if (this.#phase !== "following") return;
    await this.#loader.load(followUrl(source, recording.lastBatchId), this.#onDecoded);
    if (this.#phase !== "following") return;
    if (Date.now() > this.#liveUntil || this.#closedAt >= this.#sessionEnd) {
      this.#phase = "done";
      this.#player?.sessionOver();
      return this.options.onLiveEnded();
    }
    this.#timer = setTimeout(this.#follow, LIVE_POLL_MS);
  };

  #onDecoded = (message: DecodeMessage) => {
    if (message.kind === "batch") {
      // A moment's first batch ends the hole before it.
      if (this.#step?.kind === "moment" && !this.#stepStarted) {
        this.#stepStarted = true;
        this.#hole.endsAt(message.batch.firstTimestamp - this.options.source.startedAt);
      }
      for (const event of message.events) {
        if (closesPage(event)) this.#closedAt = Math.max(this.#closedAt, event.timestamp);
      }
      const end = message.batch.lastTimestamp;
      if (end > this.#sessionEnd) {
        this.#liveUntil = Math.min(
          this.#liveUntil + end - this.#sessionEnd,
          Date.now() + LIVE_WITHIN_MS,
        );
        this.#sessionEnd = end;
      }
    }
    this.options.onDecoded(message);
  };
}
