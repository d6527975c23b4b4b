// A sampling CPU profile of the server through its V8 inspector (started with --inspect on
// loopback): self time summed by function, the heaviest first.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Profiler {
  stop(): Promise<Profile>;
}

/** Connects to the inspector at `port` and starts sampling every `intervalUs` microseconds. */
export async function startProfiler(port: number, intervalUs = 200): Promise<Profiler> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.id) pending.get(data.id)?.(data.result);
  };
  const call = (method: string, params: unknown = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: intervalUs });
  await call("Profiler.start");
  return {
    async stop() {
      const { profile } = await call("Profiler.stop") as { profile: Profile };
      socket.close();
      return profile;
    },
  };
}

/** Self time per function (name, file, line), as a share of all samples. */
export function topFunctions(profile: Profile, limit = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const file = frame.url.replace(/^.*\/node_modules\/\.deno\//, "npm:").replace(
      /^.*\/main\//,
      "",
    );
    const key = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, limit)
    .map(([frame, us]) => ({ frame, ms: us / 1000, share: us / total }));
}

const CATEGORIES: [string, RegExp][] = [
  ["idle (waiting for I/O or the CPU)", /^\(idle\)/],
  ["gzip / gunzip (op_compression_*)", /^op_compression/],
  ["SHA-256 (subtle digest)", /^digest |deno_crypto/],
  ["JSON.parse (parseJson of the body() validator)", /^parseJson /],
  ["JSON.stringify + marker extraction (ingestBatch)", /^ingestBatch |core\/markers/],
  ["text encode/decode", /^(encode|decode|encodeInto|op_encoding)|08_text_encoding/],
  ["web streams, Blob, Response plumbing", /06_streams|09_file|op_blob|^Deferred/],
  ["garbage collector", /^\(garbage collector\)/],
  ["zod validation", /npm:zod/],
  ["cuid2 ids (bignumber.js, sha3)", /cuid2|bignumber|noble/],
  ["postgres.js driver + node Buffer", /npm:postgres|deno_node|^writeBuffer|^FastBuffer/],
  ["kysely", /npm:kysely/],
  ["hono + HTTP server", /npm:hono|deno_http|op_http/],
];

/** Self time grouped into the ingest path's cost centres. */
export function byCategory(profile: Profile) {
  const totals = new Map<string, number>();
  let all = 0;
  for (const row of topFunctions(profile, Infinity)) {
    const category = CATEGORIES.find(([, pattern]) => pattern.test(row.frame))?.[0] ?? "other";
    totals.set(category, (totals.get(category) ?? 0) + row.ms);
    all += row.ms;
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([category, ms]) => ({
    category,
    ms,
    share: ms / all,
  }));
}
