import type { PageProps } from "$fresh/server.ts";
import type { FixtureState } from "@/fresh/testdata/routes/_middleware.ts";

export default function Tab({ params, state }: PageProps<unknown, FixtureState>) {
  return <p id="tab">tab={params.tab} trail={state.trail.join(">")}</p>;
}
