import type { PageProps } from "$fresh/server.ts";

export default function NotFound({ url, data }: PageProps<{ greeting?: string } | undefined>) {
  return <h1>Not found: {data?.greeting ?? url.pathname}</h1>;
}
