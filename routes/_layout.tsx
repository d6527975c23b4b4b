import type { LayoutProps } from "$fresh/server.ts";
import type { State } from "./_middleware.ts";

export default function Layout({ Component, state }: LayoutProps<unknown, State>) {
  return (
    <>
      <header class="site-header">
        <a class="brand" href="/">Playhead</a>
        {state.viewer
          ? (
            <nav class="site-nav" aria-label="Account">
              <a href="/settings/organization">Organization</a>
              <a href="/settings/profile">Profile</a>
              <a href="/invites">Invites</a>
              <form method="post" action="/signout">
                <button type="submit">Sign out</button>
              </form>
            </nav>
          )
          : (
            <nav class="site-nav" aria-label="Account">
              <a href="/signin">Sign in</a>
            </nav>
          )}
      </header>
      <main class="site-main">
        <Component />
      </main>
    </>
  );
}
