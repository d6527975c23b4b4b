// The frame around every page: the demo banner when on, the top bar, then the page.
import type { LayoutProps } from "$fresh/server.ts";
import { DemoBanner } from "@/components/frame/DemoBanner.tsx";
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
      <main class="site-main">
        <Component />
      </main>
    </>
  );
}
