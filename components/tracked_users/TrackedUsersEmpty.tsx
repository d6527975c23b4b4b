// The users page of an organization whose recordings name nobody yet: sessions become users when
// the site calls identify(), shown with a short snippet.
import { sessionsHref } from "@/page_state/sessions.ts";

export function identifySnippet(appUrl: string): string {
  return `Playhead.init({ apiKey: "sp_…", endpoint: "${appUrl}" });\n` +
    `// once you know who is signed in:\n` +
    `Playhead.identify(currentUser.id, { name: currentUser.name, email: currentUser.email });`;
}

export function TrackedUsersEmpty({ appUrl }: { appUrl: string }) {
  return (
    <section class="card empty empty-setup stack" data-testid="users-empty">
      <h2>No tracked users yet</h2>
      <p>
        Sessions are anonymous until your site says who is signed in. Call <code>identify()</code>
        {" "}
        with your own user id and any traits you want to see here (name, email, plan…); every
        session of that visitor then lists under one user, with their status, activity and time
        spent.
      </p>
      <pre class="snippet"><code data-testid="identify-snippet">{identifySnippet(appUrl)}</code></pre>
      <p class="hint">
        The recording snippet with your project key is on <a href={sessionsHref()}>Sessions</a>{" "}
        until the first session arrives, and in{" "}
        <a href="/settings/organization/projects">Settings → Projects</a>.
      </p>
    </section>
  );
}
