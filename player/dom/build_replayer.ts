// rrweb's Replayer as the player builds it: inert (no interaction, no focus, no pointer trail), its
// frame kept at about:blank, continuing exactly after its last event, and the recorded viewport
// of the moment shown announced after rrweb's own deferred first-Meta size; and events added to
// it as they load.
import { Replayer } from "rrweb";
import type { RecordedEvent } from "@/recording/decode.ts";
import { keepBlankAddress } from "./blank_address.ts";
import { announceSize, insertUnapplied, playExactly } from "./replayer_internals.ts";
import type { Size } from "@/player/load/recording.ts";

export interface ReplayerHooks {
  root: HTMLElement;
  speed: number;
  onResize(size: Size): void;
  onFinish(): void;
  /** rrweb built a full snapshot in its frame. */
  onDrawn(): void;
  /** The viewport of the moment shown by the time rrweb's deferred size comes (null: none). */
  sizeNow(): Size | null;
}

export function buildReplayer(events: RecordedEvent[], hooks: ReplayerHooks): Replayer {
  const replayer = new Replayer(events, {
    root: hooks.root,
    speed: hooks.speed,
    skipInactive: false,
    showWarning: false,
    mouseTail: false,
    triggerFocus: false,
  });
  replayer.on("resize", (size) => hooks.onResize(size as Size));
  replayer.on("finish", hooks.onFinish);
  replayer.on("fullsnapshot-rebuilded", hooks.onDrawn);
  replayer.disableInteract();
  // rrweb announces its first Meta's size a task after it is built, over the size of the later
  // moment the player may have drawn by then: the moment's size is announced after it.
  setTimeout(() => {
    const size = hooks.sizeNow();
    if (size) announceSize(replayer, size);
  });
  keepBlankAddress(replayer.iframe);
  playExactly(replayer);
  return replayer;
}

/**
 * Adds loaded events to rrweb. Events of the loading hole (player/load/loading_hole.ts) go into its
 * stream unapplied: its `addEvent` would apply them at once over what is shown, which starts at a
 * later snapshot. Returns whether they did (rrweb's time 0 then moves with its first event).
 */
export function addToReplayer(
  replayer: Replayer,
  events: RecordedEvent[],
  inHole: (event: RecordedEvent) => boolean,
): boolean {
  if (events.every(inHole) && insertUnapplied(replayer, events)) return true;
  for (const event of events) replayer.addEvent(event);
  return false;
}
