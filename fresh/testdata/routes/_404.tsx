import type { PageProps } from "$fresh/server.ts";

export default function NotFound({ url, data }: PageProps<{ what?: string } | undefined>) {
  return <h1>Not found: {data?.what ?? url.pathname}</h1>;
}
