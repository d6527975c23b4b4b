import type { Handlers, PageProps } from "$fresh/server.ts";
import type { ServiceStatus } from "../app_deps.ts";
import { StatusList } from "../components/StatusList.tsx";
import HealthStatus from "../islands/HealthStatus.tsx";
import type { State } from "./_middleware.ts";

export default function Home({ data }: PageProps<ServiceStatus, State>) {
  return (
    <>
      <h1>Playhead</h1>
      <p class="lead">Self-hosted session recording.</p>
      <section class="card" aria-labelledby="status-heading">
        <h2 id="status-heading">Service status</h2>
        <StatusList status={data} />
        <HealthStatus endpoint="/api/health" intervalMs={15_000} />
      </section>
    </>
  );
}

export const handler: Handlers<ServiceStatus, State> = {
  async GET(_req, ctx) {
    return ctx.render(await ctx.state.deps.status());
  },
};
