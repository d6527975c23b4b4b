// A comment's text as text: never markup (Preact escapes every string), with http(s) addresses made
// links that open apart and send no Referer; any other scheme (javascript:, data:) stays text.
import { Fragment } from "preact";

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;
/** Punctuation that usually ends the sentence around an address, not the address. */
const TRAILING = /[.,;:!?)\]]+$/;

export function CommentText({ text }: { text: string }) {
  const parts: (string | { href: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const href = match[0].replace(TRAILING, "");
    parts.push(text.slice(at, match.index), { href });
    at = match.index + href.length;
  }
  parts.push(text.slice(at));
  return (
    <p class="comment-text">
      {parts.map((part, i) =>
        // A bare string in an array is escaped twice by the server's precompiled JSX; in a
        // Fragment of its own it is escaped once, as everywhere else.
        typeof part === "string"
          ? <Fragment key={i}>{part}</Fragment>
          : (
            <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
              {part.href}
            </a>
          )
      )}
    </p>
  );
}
