import assert from "node:assert/strict";
import {
  ENDED,
  LIVE,
  nextMode,
  type PlayerInput,
  type PlayerMode,
  PLAYING,
  READY,
  wantsPlay,
} from "./player_mode.ts";

const waiting = (resume: boolean): PlayerMode => ({ name: "waiting", resume });
const seeking = (resume: boolean): PlayerMode => ({ name: "seeking", resume });
const name = (mode: PlayerMode) =>
  "resume" in mode ? `${mode.name}(${mode.resume ? "play" : "paused"})` : mode.name;

/** Every mode, and where each input takes it. */
const TABLE: [PlayerMode, Record<PlayerInput, PlayerMode>][] = [
  [waiting(false), {
    play: waiting(true),
    pause: waiting(false),
    seek: seeking(false),
    held: waiting(false),
    shown: READY,
    finished: waiting(false),
    starved: waiting(false),
    edge: waiting(false),
  }],
  [waiting(true), {
    play: waiting(true),
    pause: waiting(false),
    seek: seeking(true),
    held: waiting(true),
    shown: PLAYING,
    finished: waiting(true),
    starved: waiting(true),
    edge: waiting(true),
  }],
  [READY, {
    play: PLAYING,
    pause: READY,
    seek: seeking(false),
    held: waiting(false),
    shown: READY,
    finished: READY,
    starved: READY,
    edge: READY,
  }],
  [PLAYING, {
    play: PLAYING,
    pause: READY,
    seek: seeking(true),
    held: waiting(true),
    shown: PLAYING,
    finished: ENDED,
    starved: waiting(true),
    edge: LIVE,
  }],
  [seeking(false), {
    play: PLAYING,
    pause: READY,
    seek: seeking(false),
    held: waiting(false),
    shown: READY,
    finished: seeking(false),
    starved: seeking(false),
    edge: seeking(false),
  }],
  [seeking(true), {
    play: PLAYING,
    pause: READY,
    seek: seeking(true),
    held: waiting(true),
    shown: PLAYING,
    finished: seeking(true),
    starved: seeking(true),
    edge: seeking(true),
  }],
  [LIVE, {
    play: LIVE,
    pause: READY,
    seek: seeking(true),
    held: waiting(true),
    shown: PLAYING,
    finished: ENDED,
    starved: LIVE,
    edge: LIVE,
  }],
  [ENDED, {
    play: PLAYING,
    pause: ENDED,
    seek: seeking(false),
    held: waiting(false),
    shown: READY,
    finished: ENDED,
    starved: ENDED,
    edge: ENDED,
  }],
];

Deno.test("each mode goes where the table says for every input", () => {
  for (const [from, to] of TABLE) {
    for (const [input, expected] of Object.entries(to)) {
      const got = nextMode(from, input as PlayerInput);
      assert.deepEqual(got, expected, `${name(from)} --${input}--> ${name(got)}`);
    }
  }
});

Deno.test("the viewer wants it playing in playing mode and while a frame is awaited to play", () => {
  const wanting = TABLE.map(([mode]) => mode).filter(wantsPlay).map(name);
  assert.deepEqual(wanting, ["waiting(play)", "playing", "seeking(play)", "live"]);
});

Deno.test("a seek from the end, then its frame, leaves the player paused at the moment", () => {
  let mode = ENDED;
  for (const input of ["seek", "shown"] as const) mode = nextMode(mode, input);
  assert.deepEqual(mode, READY);
});

Deno.test("playing past what is decoded waits, then plays on once the moment is drawn", () => {
  let mode = PLAYING;
  mode = nextMode(mode, "starved");
  assert.deepEqual(mode, waiting(true));
  mode = nextMode(mode, "shown");
  assert.deepEqual(mode, PLAYING);
});

Deno.test("at the end of a session still recorded it waits live, and ends when the session does", () => {
  let mode = nextMode(PLAYING, "edge");
  assert.deepEqual(mode, LIVE);
  mode = nextMode(mode, "shown"); // its next batch arrived and plays
  assert.deepEqual(mode, PLAYING);
  mode = nextMode(nextMode(mode, "edge"), "finished");
  assert.deepEqual(mode, ENDED);
});
