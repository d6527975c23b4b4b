import type { PageProps } from "$fresh/server.ts";

export default function Docs({ params }: PageProps) {
  return <p id="docs">rest={params.rest}</p>;
}
