// One comment of the thread: its moment (a button that seeks there), author, time written, text,
// and for its author or an ADMIN+ a Delete button.
import { clock } from "@/player/ui/format.ts";
import type { CommentOut } from "@/core/comments/schema.ts";
import { CommentText } from "./CommentText.tsx";

interface Props {
  comment: CommentOut;
  highlighted: boolean;
  canDelete: boolean;
  onSeek(offsetMs: number): void;
  onDelete(): void;
  onCopyLink(): void;
}

/** When it was written, the same on the server and in the browser (UTC). */
const written = (iso: string) => iso.slice(0, 16).replace("T", " ") + " UTC";

export function CommentItem(
  { comment, highlighted, canDelete, onSeek, onDelete, onCopyLink }: Props,
) {
  return (
    <li
      id={`comment-${comment.id}`}
      class={`comment${highlighted ? " highlighted" : ""}`}
      data-offset={comment.offsetMs}
      aria-current={highlighted ? "true" : undefined}
    >
      <div class="comment-head">
        <button
          type="button"
          class="comment-moment small"
          title="Show this moment"
          onClick={() => onSeek(comment.offsetMs)}
        >
          {clock(comment.offsetMs)}
        </button>
        <strong class="comment-author">{comment.authorName ?? "A former member"}</strong>
        <time class="muted" dateTime={comment.createdAt}>{written(comment.createdAt)}</time>
        <span class="replay-spacer" />
        <button type="button" class="link" onClick={onCopyLink}>Copy link</button>
        {canDelete && <button type="button" class="link" onClick={onDelete}>Delete</button>}
      </div>
      <CommentText text={comment.text} />
    </li>
  );
}
