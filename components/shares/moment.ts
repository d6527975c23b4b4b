// A moment as people type it in the Share dialog: `m:ss`, or plain seconds.

/** `m:ss` (or plain seconds) to ms; null when empty; NaN when unreadable. */
export function parseMoment(text: string): number | null {
  const value = text.trim();
  if (!value) return null;
  const match = /^(?:(\d{1,4}):([0-5]\d)|(\d{1,6}))$/.exec(value);
  if (!match) return NaN;
  const seconds = match[3] !== undefined
    ? Number(match[3])
    : Number(match[1]) * 60 + Number(match[2]);
  return seconds * 1000;
}
