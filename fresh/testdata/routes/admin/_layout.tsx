import type { LayoutProps } from "$fresh/server.ts";

export default function AdminLayout({ Component }: LayoutProps) {
  return (
    <div data-layout="admin">
      <Component />
    </div>
  );
}
