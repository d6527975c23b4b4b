// One line describing the machine a benchmark ran on: CPU, cores, memory, Chromium and Deno.

export async function machine(): Promise<string> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo");
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? "unknown CPU";
  const memGb = Math.round(Deno.systemMemoryInfo().total / 2 ** 30);
  const chromium = await new Deno.Command("/usr/bin/chromium", { args: ["--version"] })
    .output()
    .then((o) => new TextDecoder().decode(o.stdout).trim())
    .catch(() => "Chromium (version unknown)");
  return `${model}, ${navigator.hardwareConcurrency} cores, ${memGb} GB, ${chromium}, ` +
    `Deno ${Deno.version.deno}`;
}
