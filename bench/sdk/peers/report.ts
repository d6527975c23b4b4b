// Renders the peer benchmark as the "SDK against the peers" section of bench/RESULTS.md: one table
// per reference page, ratios to the no-recorder run and to the leanest peer, and Playhead's bytes.
import type { Figures } from "./figures.ts";
import type { PlayheadProfile } from "./profile.ts";

export const BEGIN = "<!-- sdk-peers:begin -->";
export const END = "<!-- sdk-peers:end -->";

/** The peers' own SDKs (not Playhead, not the plain rrweb lower bound). */
export const PEERS = ["posthog", "sentry", "openreplay", "datadog"];

export interface PeerReport {
  date: string;
  command: string;
  machine: string;
  loadAverages: string;
  seconds: number;
  labels: Record<string, string>;
  rows: Figures[];
  profile: (PlayheadProfile & { kbPerMinute: number; sentBytes: number }) | null;
  notRun: string[];
}

const f0 = (n: number) => Math.round(n).toLocaleString("en-US");
const f1 = (n: number) => n.toFixed(1);
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "—");

/** The table of one page. */
export function pageTable(rows: Figures[], labels: Record<string, string>): string[] {
  const none = rows.find((r) => r.recorder === "none");
  const peers = rows.filter((r) => PEERS.includes(r.recorder));
  const leanBytes = peers.length
    ? peers.reduce((a, b) => (a.kbPerMinute <= b.kbPerMinute ? a : b))
    : null;
  const leanCpu = peers.length
    ? Math.min(...peers.map((p) => p.cpuMsPerSecond - (none?.cpuMsPerSecond ?? 0)))
    : NaN;
  const out = [
    "| recorder | KB/min on the wire | × leanest peer | requests/min | main thread ms/s | added ms/s | × no recorder | added × leanest peer | longest task ms | longest task once recording ms | first full snapshot ms | heap min 1→2 KB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const added = none ? r.cpuMsPerSecond - none.cpuMsPerSecond : NaN;
    out.push(
      `| ${labels[r.recorder] ?? r.recorder} | ${f1(r.kbPerMinute)} | ${
        leanBytes && r.recorder !== "none" ? x(r.kbPerMinute / leanBytes.kbPerMinute) : "—"
      } | ${f1(r.requestsPerMinute)} | ${f1(r.cpuMsPerSecond)} | ${
        r.recorder === "none" ? "—" : f1(added)
      } | ${none ? x(r.cpuMsPerSecond / none.cpuMsPerSecond) : "—"} | ${
        r.recorder === "none" ? "—" : x(added / leanCpu)
      } | ${f0(r.longestTaskMs)} | ${f0(r.longestTaskRecordingMs)} | ${
        r.firstSnapshotMs === null ? "—" : f0(r.firstSnapshotMs)
      } | ${r.heapGrowthKb === null ? "—" : f0(r.heapGrowthKb)} |`,
    );
  }
  if (leanBytes) out.push("", `Leanest peer in bytes on this page: ${labels[leanBytes.recorder]}.`);
  return out;
}

export function profileTable(p: NonNullable<PeerReport["profile"]>): string[] {
  const total = p.groups.reduce((s, g) => s + g.gzipBytes, 0);
  return [
    "| group | events | JSON KB | gzipped alone KB | share of gzipped |",
    "|---|---:|---:|---:|---:|",
    ...p.groups.map((g) =>
      `| ${g.name} | ${f0(g.events)} | ${f1(g.jsonBytes / 1024)} | ${f1(g.gzipBytes / 1024)} | ${
        (g.gzipBytes / total * 100).toFixed(0)
      } % |`
    ),
    "",
    `The same events batched as plain rrweb's run batches them (the first at 5 s, then every 60 s), ` +
    `each batch gzipped: ${f1(p.rebatched.all / 1024)} KB; without the full snapshots after the ` +
    `first: ${f1(p.rebatched.firstSnapshotOnly / 1024)} KB (as sent: ${
      f1(p.sentBytes / 1024)
    } KB).`,
    "",
    `Inside the mutations (JSON): ${
      Object.entries(p.mutationParts).map(([part, bytes]) => `${part} ${f1(bytes / 1024)} KB`)
        .join(", ")
    }.`,
  ];
}

export function renderPeerReport(r: PeerReport, reading: string): string {
  const pages = [...new Set(r.rows.map((row) => row.page))];
  return [
    BEGIN,
    "## SDK against the peers: the cost of recording (issue 46)",
    "",
    `${r.date} · \`${r.command}\` · ${r.machine} · load average (1, 5, 15 min) ${r.loadAverages}`,
    "",
    ...pages.flatMap((page) => [
      `### ${page} page (${r.seconds} s visit)`,
      "",
      ...pageTable(r.rows.filter((row) => row.page === page), r.labels),
      "",
    ]),
    ...(r.profile
      ? [
        `### Where Playhead's bytes go on the dashboard page (${
          f1(r.profile.kbPerMinute)
        } KB/min, ` +
        `${r.profile.fullSnapshots} full snapshots)`,
        "",
        ...profileTable(r.profile),
        "",
      ]
      : []),
    ...(r.notRun.length ? [`Not run: ${r.notRun.join("; ")}.`, ""] : []),
    reading,
    END,
  ].join("\n");
}
