import type { PageProps } from "$fresh/server.ts";
import type { FixtureState } from "./_middleware.ts";

export default function Home({ state }: PageProps<undefined, FixtureState>) {
  return <p id="home">Home, trail {state.trail.join(">")}, deps {state.deps ?? "none"}</p>;
}
