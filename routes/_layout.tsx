import type { LayoutProps } from "$fresh/server.ts";

export default function Layout({ Component }: LayoutProps) {
  return (
    <>
      <header class="site-header">
        <a class="brand" href="/">Playhead</a>
      </header>
      <main class="site-main">
        <Component />
      </main>
    </>
  );
}
