// The replay page's comment thread (docs/decisions.md "Comments"): every comment with its moment,
// author and time; a form that comments on the moment the player shows; delete for the author or
// an ADMIN+. The player learns of changes and seeks through player/ui/comments.ts.
import { useEffect, useState } from "preact/hooks";
import { CommentItem } from "@/components/comments/CommentItem.tsx";
import { type CommentOut, MAX_COMMENT_CHARS } from "@/core/comments/schema.ts";
import { useCopy } from "@/hooks/use_copy.ts";
import { commentHref } from "@/page_state/replay.ts";
import { announceComments, requestSeek } from "@/player/ui/comments.ts";
import { apiPost, apiSend } from "@/utils/api_client.ts";

interface Props {
  sessionId: string;
  comments: CommentOut[];
  viewerId: string;
  /** ADMIN+: may delete anyone's comment. */
  canModerate: boolean;
  /** `?comment=`: the comment the page was opened at. */
  highlight: string | null;
}

/** The real offset the player shows now (its root's `data-now`). */
function playerNow(): number {
  const now = document.querySelector(".replay-player")?.getAttribute("data-now");
  return Math.max(Number(now) || 0, 0);
}

export default function CommentThread(props: Props) {
  const [comments, setComments] = useState(props.comments);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [highlight, setHighlight] = useState(props.highlight);
  const { status: copyStatus, copy } = useCopy();

  useEffect(() => {
    if (highlight) {
      document.getElementById(`comment-${highlight}`)?.scrollIntoView({ block: "nearest" });
    }
  }, []);

  const update = (next: CommentOut[]) => {
    const sorted = [...next].sort((a, b) => a.offsetMs - b.offsetMs);
    setComments(sorted);
    announceComments(sorted);
  };

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const offsetMs = Math.round(playerNow());
      const made = await apiPost<CommentOut>(`/api/sessions/${props.sessionId}/comments`, {
        offsetMs,
        text,
      });
      update([...comments, made]);
      setText("");
      setHighlight(made.id);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function remove(comment: CommentOut) {
    setError(null);
    try {
      await apiSend("DELETE", `/api/comments/${comment.id}`);
      update(comments.filter((c) => c.id !== comment.id));
    } catch (e) {
      setError((e as Error).message);
    }
  }

  function copyLink(comment: CommentOut) {
    const url = new URL(commentHref(props.sessionId, comment), location.href);
    copy(url.href, url.href);
  }

  return (
    <section class="comment-thread card" aria-labelledby="comments-title">
      <h2 id="comments-title" class="card-title-inline">
        Comments <span class="count">{comments.length}</span>
      </h2>
      {comments.length === 0 && (
        <p class="muted">No comments yet. Pause at a moment and say what you see there.</p>
      )}
      <ol class="comments">
        {comments.map((c) => (
          <CommentItem
            key={c.id}
            comment={c}
            highlighted={c.id === highlight}
            canDelete={props.canModerate || c.authorId === props.viewerId}
            onSeek={(offset) => {
              setHighlight(c.id);
              requestSeek(offset);
            }}
            onDelete={() => remove(c)}
            onCopyLink={() => copyLink(c)}
          />
        ))}
      </ol>
      <span class="copy-status" role="status" aria-live="polite">{copyStatus}</span>
      <form class="comment-form" onSubmit={submit}>
        <label for="comment-text">Comment on the moment shown</label>
        <textarea
          id="comment-text"
          rows={3}
          maxLength={MAX_COMMENT_CHARS}
          required
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
        <div class="comment-form-row">
          <span class="muted">{text.length} / {MAX_COMMENT_CHARS.toLocaleString("en")}</span>
          {error && <span class="form-error" role="alert">{error}</span>}
          <span class="replay-spacer" />
          <button type="submit" disabled={busy || text.trim() === ""}>
            Comment at the current moment
          </button>
        </div>
      </form>
    </section>
  );
}
