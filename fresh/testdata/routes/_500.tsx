import type { ErrorPageProps } from "$fresh/server.ts";

export default function ServerError({ error }: ErrorPageProps) {
  return <h1>Server error: {error instanceof Error ? error.message : "unknown"}</h1>;
}
