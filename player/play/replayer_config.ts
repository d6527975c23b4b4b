// The two rrweb settings the player changes while it runs, set only when they change (rrweb's
// `setConfig` restarts its timer): playback speed, and whether a jump replays on its virtual copy.
import type { Replayer } from "rrweb";

export class ReplayerConfig {
  #speed: number;
  #virtualDom = true; // rrweb's default

  constructor(private readonly replayer: Replayer, speed: number) {
    this.#speed = speed;
  }

  speed(speed: number) {
    if (speed === this.#speed) return;
    this.#speed = speed;
    this.replayer.setConfig({ speed });
  }

  virtualDom(on: boolean) {
    if (on === this.#virtualDom) return;
    this.#virtualDom = on;
    this.replayer.setConfig({ useVirtualDom: on });
  }
}
