// The parts of a public link's page (routes/s/): its caption, and the one page every link that
// does not open gets, whatever the reason (so a guess learns nothing), or the throttled one.
import { Head } from "$fresh/runtime.ts";
import { clock } from "@/player/ui/format.ts";

function Brand() {
  return (
    <header class="share-brand">
      <span class="share-logo" aria-hidden="true">▶</span> Playhead
    </header>
  );
}

export function SharedCaption({ fromMs, toMs }: { fromMs: number; toMs: number }) {
  return (
    <>
      <Brand />
      <div class="replay-heading">
        <h1>Shared replay</h1>
        <span class="muted" data-testid="share-window">
          {clock(fromMs)}–{clock(toMs)} of a recorded session
        </span>
      </div>
    </>
  );
}

export function ShareNotFound() {
  return (
    <div class="share-page">
      <Head>
        <title>Link not available · Playhead</title>
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <Brand />
      <h1>This link is not available</h1>
      <p>
        It may have expired or been revoked, or what it showed was deleted. Ask whoever sent it for
        a new one.
      </p>
    </div>
  );
}

/** Too many unknown links tried from here, or (`busy`) too many link requests under way. */
export function ShareThrottled({ retryAfter, busy }: { retryAfter: number; busy?: boolean }) {
  return (
    <div class="share-page">
      <Head>
        <title>Too many requests · Playhead</title>
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <Brand />
      <h1>{busy ? "Too many requests at once" : "Too many links tried"}</h1>
      <p>
        {busy
          ? "This link, or links opened from here, have too many requests under way."
          : "Too many links that do not exist were opened from here."} Try again in {retryAfter} s.
      </p>
    </div>
  );
}
