// The replay player (docs/decisions.md "Replay"): the recorded page in a sandboxed, inert iframe
// scaled into a 16:9 slot, our own controls, and the History, Console and Network side panel.
// Logic lives in player/.
import { replayHref } from "@/page_state/replay.ts";
import { useEffect, useRef, useState } from "preact/hooks";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import { ConsolePanel } from "@/components/replay/ConsolePanel.tsx";
import { HistoryPanel } from "@/components/replay/HistoryPanel.tsx";
import { NetworkPanel } from "@/components/replay/NetworkPanel.tsx";
import { PlayerControls } from "@/components/replay/PlayerControls.tsx";
import { ReplayNotices } from "@/components/replay/ReplayNotices.tsx";
import { ServerFrame } from "@/components/replay/ServerFrame.tsx";
import { type ConsoleLevel, currentEntry } from "@/player/ui/console_entries.ts";
import { activeRow, buildHistory, type SessionMarker } from "@/player/ui/history.ts";
import { lcpAt, useLcpBox } from "@/player/ui/lcp_outline.ts";
import { currentRequest } from "@/player/ui/network_entries.ts";
import { seekTicks } from "@/player/ui/ticks.ts";
import { Timeline } from "@/player/play/timeline.ts";
import { type ReplaySource, useReplay } from "@/player/ui/use_replay.ts";
import { useServerFrame } from "@/player/ui/use_server_frame.ts";
import { fitViewport } from "@/player/ui/viewport.ts";
import type { Size } from "@/player/load/recording.ts";
import { useCopy } from "@/hooks/use_copy.ts";
import { BOOTING, wantsPlay } from "@/player/play/player_mode.ts";
import { commentMarkers, type PlayerComment, useComments } from "@/player/ui/comments.ts";

interface Props extends ReplaySource {
  markers: SessionMarker[];
  /** Recorded size of the frame the server rendered into the page (the first, or at `startAt`). */
  firstFrame: Size | null;
  /** The trigger that started the recording, marked on the seek bar; null when sampled. */
  trigger?: { at: number; reason: string } | null;
  /** On a public link's page (routes/s/): no link to copy (it would need the dashboard). */
  shared?: boolean;
  /** Show the Console tab (default true; a public link shows it only when made to). */
  console?: boolean;
  /** Members' comments, shown as markers (player/ui/comments.ts). */
  comments?: PlayerComment[];
  /**
   * Real offset in the session of the player's 0: a public link's player runs on its window's own
   * timeline, and its clock, History and Console still say the session's moments (default 0).
   */
  origin?: number;
}

type Tab = "history" | "console" | "network";

const TAB_NAMES: Record<Tab, string> = {
  history: "History",
  console: "Console",
  network: "Network",
};

/** History sections in the server's HTML: more than the panel shows before it is scrolled. */
const SERVER_HISTORY_SECTIONS = 40;

export default function ReplayPlayer(props: Props) {
  const { root, controller: player, recording, logs, requests, recorded, failure, arriving, live } =
    useReplay(props);
  const slot = useRef<HTMLDivElement>(null);
  const [slotSize, setSlotSize] = useState<Size>({ width: 0, height: 0 });
  const [tab, setTab] = useState<Tab>("history");
  const [hidden, setHidden] = useState<ReadonlySet<ConsoleLevel>>(new Set());
  const { status: copyStatus, copy } = useCopy();
  const serverFrame = useServerFrame(props.firstFrame !== null, player);
  // The server sends the first history rows only: a long session has hundreds, whose markup would
  // hold the page's first frame; the rest render once the island runs.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  useEffect(() => {
    const observer = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      setSlotSize({ width, height });
    });
    observer.observe(slot.current!);
    return () => observer.disconnect();
  }, []);

  const comments = useComments(props.comments ?? [], player);
  const markers = [...props.markers, ...commentMarkers(comments, props.startedAt)];

  const origin = props.origin ?? 0;
  const now = player?.now ?? props.startAt;
  const gaps = player?.gaps ?? [];
  const duration = player?.duration ?? props.duration;
  const timeline = new Timeline(gaps, duration, player?.compressIdle ?? true);
  const sections = buildHistory(markers, gaps, props.startedAt, duration, recording.frames);
  const active = activeRow(sections, now);
  // A blocked page's span: nothing of it was recorded, so the page before it is not shown frozen.
  const blocked = sections[active.section]?.blocked ?? null;
  const fit = fitViewport(slotSize, recorded);
  const progress = props.eventCount > 0
    ? Math.min(recording.events.length / props.eventCount, 1)
    : 1;
  // Three kinds of not there yet: the recording still arriving (batches asked for still to come),
  // the player booting (rrweb not built: its own first frame not drawn), and the player waiting at
  // its position for events not decoded yet (a seek or play past what has arrived).
  const booting = !player?.ready;
  const mode = player?.mode ?? BOOTING;
  const waiting = mode.name === "waiting";
  const playing = wantsPlay(mode);
  const lcp = lcpAt(markers, now, props.startedAt);
  const lcpBox = useLcpBox(root.current, player?.ready ? lcp : null, now);
  const tabs: Tab[] = props.console === false
    ? ["history"]
    : props.shared
    ? ["history", "console"]
    : ["history", "console", "network"];

  async function copyLink() {
    const url = new URL(replayHref(props.sessionId, player?.now ?? now), location.href);
    await copy(url.href, url.href); // refused, the link itself is shown to copy by hand
  }

  function toggleLevel(level: ConsoleLevel) {
    const next = new Set(hidden);
    if (!next.delete(level)) next.add(level);
    setHidden(next);
  }

  return (
    <div
      class="replay-player"
      // Without a server frame the player's own frame is the first: the boot need not wait for a
      // paint before hydrating (fresh/client/boot.ts).
      data-hydrate={props.firstFrame ? undefined : "now"}
      data-ready={player?.ready ? "true" : "false"}
      data-mode={mode.name}
      data-now={Math.round(now)}
      data-ended={mode.name === "ended" ? "true" : "false"}
      data-seeking={mode.name === "seeking" ? "true" : "false"}
      data-keyframes={player?.keyframesReady ? "ready" : "building"}
      data-waiting={waiting ? "true" : "false"}
    >
      <div class="replay-stage">
        {/* inert: the replayed page takes no focus, no Tab stop and no pointer (it is a picture) */}
        <div
          class="replay-slot"
          ref={slot}
          inert
          data-playing={playing ? "true" : "false"}
        >
          <div
            class="replay-root"
            ref={root}
            data-scale={fit.scale}
            style={{
              width: `${recorded.width}px`,
              height: `${recorded.height}px`,
              transform: `translate(${fit.left}px, ${fit.top}px) scale(${fit.scale})`,
            }}
          />
          {lcpBox && (
            <div
              class="lcp-layer"
              style={{
                width: `${recorded.width}px`,
                height: `${recorded.height}px`,
                transform: `translate(${fit.left}px, ${fit.top}px) scale(${fit.scale})`,
              }}
            >
              <div
                class="lcp-outline"
                data-testid="lcp-outline"
                data-label={lcp?.label}
                style={{
                  left: `${lcpBox.left}px`,
                  top: `${lcpBox.top}px`,
                  width: `${lcpBox.width}px`,
                  height: `${lcpBox.height}px`,
                }}
              />
            </div>
          )}
          {serverFrame && <ServerFrame size={props.firstFrame!} moment={props.startAt > 0} />}
          {booting && !serverFrame && (
            <div class="replay-overlay" role="status">
              {arriving ? "Loading the recording…" : "Nothing to show for this session."}
            </div>
          )}
          {!booting && !arriving && !recording.hasSnapshot && (
            <div class="replay-overlay">No page snapshot in this recording to draw.</div>
          )}
          {!booting && waiting && <div class="replay-overlay subtle" role="status">Loading…</div>}
          {blocked !== null && (
            <div class="replay-overlay replay-paused" role="status">
              <strong>Recording paused on a blocked page</strong>
              <code>{blocked}</code>
              <span>
                The project's recording settings leave this page out: nothing of it was recorded.
              </span>
            </div>
          )}
        </div>
        <PlayerControls
          ready={!!player?.ready}
          playing={playing}
          timeline={timeline}
          now={now}
          loadedUntil={arriving ? recording.loadedUntil : duration}
          ticks={seekTicks(markers, logs, props.startedAt, duration, props.trigger ?? null)}
          origin={origin}
          speed={player?.speed ?? 1}
          skipIdle={player?.skipIdle ?? true}
          copyStatus={copyStatus}
          onPlayPause={() => playing ? player?.pause() : player?.play()}
          // From the live position: a seek of this frame may not be rendered yet.
          onStep={(ms) => player?.seek(timeline.step(player.now, ms))}
          onSeekDisplay={(display) => player?.seek(timeline.toReal(display))}
          onSeekReal={(real) => player?.seek(real)}
          onSpeed={(speed) => player?.setPlayback({ speed })}
          onSkipIdle={(on) => player?.setPlayback({ skipIdle: on })}
          onCompressIdle={(on) => player?.setPlayback({ compressIdle: on })}
          onCopyLink={props.shared ? undefined : copyLink}
        />
        <div class="replay-status">
          {live && (
            <span
              class="live-badge"
              title={`Still recording: the latest event is under ${
                LIVE_WITHIN_MS / 60_000
              } minutes old, so more may arrive; they appear here as they do`}
            >
              Live
            </span>
          )}
          {arriving && (
            <span class="replay-progress">
              <progress aria-label="Loading events" max={1} value={progress} />
              {Math.round(progress * 100)} % of {props.eventCount.toLocaleString("en")} events
            </span>
          )}
        </div>
        <ReplayNotices
          sessionStart={props.startedAt - origin}
          corrupt={recording.corrupt}
          skipped={recording.skipped}
          noSnapshot={!arriving && !recording.hasSnapshot}
          failure={failure}
        />
      </div>
      <aside class="replay-panel">
        <div role="tablist" class="tabs" aria-label="Session details">
          {tabs.map((name) => (
            <button
              type="button"
              role="tab"
              key={name}
              id={`tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`panel-${name}`}
              onClick={() => setTab(name)}
            >
              {TAB_NAMES[name]}
              {name === "console" && <span class="count">{logs.length}</span>}
              {name === "network" && <span class="count">{requests.length}</span>}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} class="panel-body">
          {tab === "history"
            ? (
              <HistoryPanel
                sections={hydrated ? sections : sections.slice(0, SERVER_HISTORY_SECTIONS)}
                active={active}
                origin={origin}
                onSeek={(real) => player?.seek(real)}
              />
            )
            : tab === "network"
            ? (
              <NetworkPanel
                entries={requests}
                current={currentRequest(requests, now)}
                onSeek={(real) => player?.seek(real)}
              />
            )
            : (
              <ConsolePanel
                entries={logs}
                current={currentEntry(logs, now)}
                hidden={hidden}
                onToggleLevel={toggleLevel}
                origin={origin}
                onSeek={(real) => player?.seek(real)}
              />
            )}
        </div>
      </aside>
    </div>
  );
}
