import type { LayoutProps } from "$fresh/server.ts";

export default function MarketingLayout({ Component }: LayoutProps) {
  return (
    <div data-layout="marketing">
      <Component />
    </div>
  );
}
