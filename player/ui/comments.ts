// Comments in the player (docs/decisions.md "Comments"): each is a `comment` marker (History row,
// seek bar tick) at its exact millisecond. The comment thread, another island on the replay page,
// tells the player of changes and asks it to seek through two DOM events on the document.
import { useEffect, useState } from "preact/hooks";
import type { SessionMarker } from "./history.ts";

/** A comment as the player needs it (core/comments/schema.ts `comment`, trimmed). */
export interface PlayerComment {
  id: string;
  offsetMs: number;
  text: string;
  authorName: string | null;
}

export const COMMENTS_EVENT = "playhead:comments";
export const SEEK_EVENT = "playhead:seek";

export function commentMarkers(comments: readonly PlayerComment[], startedAt: number) {
  return comments.map((c): SessionMarker => ({
    timestamp: startedAt + c.offsetMs,
    kind: "comment",
    data: { id: c.id, text: c.text, author: c.authorName ?? "" },
  }));
}

/** The thread's side: the player shows these comments now. */
export function announceComments(comments: PlayerComment[]) {
  document.dispatchEvent(new CustomEvent(COMMENTS_EVENT, { detail: comments }));
}

/** The thread's side: show this real offset (ms from the session start). */
export function requestSeek(offsetMs: number) {
  document.dispatchEvent(new CustomEvent(SEEK_EVENT, { detail: offsetMs }));
}

/** The player's side: the comments to show, kept current, and seeks asked for by the thread. */
export function useComments(
  initial: readonly PlayerComment[],
  player: { seek(real: number): void } | null,
): readonly PlayerComment[] {
  const [comments, setComments] = useState(initial);
  useEffect(() => {
    const onComments = (e: Event) => setComments((e as CustomEvent<PlayerComment[]>).detail);
    document.addEventListener(COMMENTS_EVENT, onComments);
    return () => document.removeEventListener(COMMENTS_EVENT, onComments);
  }, []);
  useEffect(() => {
    if (!player) return;
    const onSeek = (e: Event) => player.seek((e as CustomEvent<number>).detail);
    document.addEventListener(SEEK_EVENT, onSeek);
    return () => document.removeEventListener(SEEK_EVENT, onSeek);
  }, [player]);
  return comments;
}
