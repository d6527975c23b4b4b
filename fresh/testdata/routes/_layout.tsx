import type { LayoutProps } from "$fresh/server.ts";

export default function RootLayout({ Component }: LayoutProps) {
  return (
    <main data-layout="root">
      <Component />
    </main>
  );
}
