// Each benchmark owns one section of bench/RESULTS.md between its two marker comments: a run
// replaces that section in place, or adds it at the end the first time.
export async function replaceSection(
  path: string | URL,
  markers: { begin: string; end: string },
  section: string,
): Promise<void> {
  const text = await Deno.readTextFile(path);
  const [start, stop] = [text.indexOf(markers.begin), text.indexOf(markers.end)];
  const next = start >= 0 && stop > start
    ? text.slice(0, start) + section + text.slice(stop + markers.end.length)
    : `${text.trimEnd()}\n\n${section}\n`;
  await Deno.writeTextFile(path, next);
}
