// rrweb's Replayer as the player builds it: inert (no interaction, no focus, no pointer trail), its
// frame kept at about:blank, continuing exactly after its last event, and the recorded viewport
// of the moment shown announced after rrweb's own deferred first-Meta size.
import { Replayer } from "rrweb";
import type { RecordedEvent } from "@/player/decode/decode.ts";
import { keepBlankAddress } from "./blank_address.ts";
import { announceSize, playExactly } from "./replayer_internals.ts";
import type { Size } from "@/player/ui/viewport.ts";

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
