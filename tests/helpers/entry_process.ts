// The service's entries as an operator runs them: `deno task start` and the like in a child process with only the
// environment given (nothing leaks in from the test runner), its output collected.
const ROOT = new URL("../../", import.meta.url).pathname;

export interface EntryProcess extends AsyncDisposable {
  url: string;
  pid: number;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  status: Promise<Deno.CommandStatus>;
}

/**
 * Runs `deno <args>` (e.g. `task start`) from the project root on a free loopback port, with PORT
 * set and `env` (or `env(url)`, for settings that name the service's own URL) as the whole
 * environment.
 */
export function spawnDeno(
  args: string[],
  env: Record<string, string> | ((url: string) => Record<string, string>),
): EntryProcess {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: {
      ...denoItself(),
      NO_COLOR: "1",
      PORT: String(port),
      ...(typeof env === "function" ? env(url) : env),
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const collect = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(new WritableStream({ write: (chunk) => void (text += decoder.decode(chunk)) }));
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const status = child.status.then(async (s) => (await collected, s));
  return {
    url,
    pid: child.pid,
    output: () => text,
    status,
    [Symbol.asyncDispose]: async () => {
      try {
        child.kill("SIGTERM");
      } catch {
        // already exited
      }
      await status;
    },
  };
}

/** Polls GET url until it answers 200; throws with the process's output if it exits first. */
export async function waitHealthy(entry: EntryProcess, attempts = 600): Promise<void> {
  let exited = false;
  entry.status.then(() => exited = true);
  for (let i = 0; i < attempts && !exited; i++) {
    const healthy = await fetch(`${entry.url}/api/health`)
      .then(async (res) => (await res.body?.cancel(), res.ok))
      .catch(() => false);
    if (healthy) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service never became healthy:\n${entry.output()}`);
}

/** What deno itself needs to run: its cache and the path. */
function denoItself(): Record<string, string> {
  return Object.fromEntries(
    ["HOME", "PATH", "DENO_DIR"].flatMap((n) => Deno.env.has(n) ? [[n, Deno.env.get(n)!]] : []),
  );
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
