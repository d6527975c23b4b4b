// The frame around every page: the demo banner when on, the top bar, invites waiting for the
// viewer, then the page.
import type { LayoutProps } from "$fresh/server.ts";
import { DemoBanner } from "@/components/frame/DemoBanner.tsx";
import { InvitesWaiting } from "@/components/frame/InvitesWaiting.tsx";
import { TopBar } from "@/components/frame/TopBar.tsx";
import type { State } from "./_middleware.ts";

export default function Layout({ Component, state, url }: LayoutProps<unknown, State>) {
  return (
    <>
      {state.deps?.config.demoMode && <DemoBanner />}
      <TopBar
        url={url}
        email={state.viewer?.email ?? null}
        organizations={state.organizations ?? []}
      />
      {url.pathname !== "/invites" && <InvitesWaiting invites={state.invites ?? []} />}
      <main class="site-main">
        <Component />
      </main>
    </>
  );
}
