// /heatmaps (docs/decisions.md "Heatmaps"): one page of a project, in one viewport band over a
// range of days, as its visitors used it: where they clicked (by grid cell or element), raged or
// met dead clicks, and how far down they scrolled, drawn over the page's own frame (drawn by the
// server from the latest session that landed on it); the top elements beside it, each opening the
// sessions that clicked it.
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { NoOrganization } from "@/components/frame/NoOrganization.tsx";
import { HeatmapFilters } from "@/components/heatmaps/HeatmapFilters.tsx";
import { HeatmapStage } from "@/components/heatmaps/HeatmapStage.tsx";
import { TopElements } from "@/components/heatmaps/TopElements.tsx";
import { heatmapFrame } from "@/core/heatmaps/frame.ts";
import { heatmapOf, heatmapPagesOf } from "@/core/heatmaps/map.ts";
import type { Heatmap, HeatmapPageInput, HeatmapPages } from "@/core/heatmaps/schema.ts";
import { listProjects } from "@/core/projects/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
import { readHeatmapsQuery } from "@/page_state/heatmaps.ts";
import { replayFrameHref } from "@/page_state/replay.ts";
import { badRequest } from "@/http/found.ts";
import { AppError } from "@/core/errors.ts";
import type { DashboardState } from "./_middleware.ts";

interface Shown {
  kind: "heatmap";
  input: HeatmapPageInput;
  projects: ProjectView[];
  pages: HeatmapPages["pages"];
  /** Null while the project has no recorded page view in the range. */
  map: Heatmap | null;
  elements: Extract<Heatmap, { mode: "element" }>["elements"];
  /** The frame's iframe attribute (srcdoc or src) and its recorded size; null without one. */
  frame: { source: string; width: number; height: number } | null;
}
type Data = Shown | { kind: "no-organization" };

export default function HeatmapsPage({ data }: PageProps<Data, DashboardState>) {
  return (
    <>
      <Head>
        <title>Heatmaps · Playhead</title>
      </Head>
      <div class="page-head">
        <div>
          <h1>Heatmaps</h1>
          <p>Where visitors click, rage and stop scrolling, drawn over the page itself.</p>
        </div>
      </div>
      {data.kind === "no-organization" ? <NoOrganization /> : <Body data={data} />}
    </>
  );
}

function Body({ data }: { data: Shown }) {
  const { map } = data;
  return (
    <div class="stack">
      <section class="card card-flush" aria-label="Heatmap">
        <HeatmapFilters input={data.input} projects={data.projects} pages={data.pages} />
      </section>
      {map
        ? (
          <div class="heatmap-layout">
            <section class="card heatmap-card" aria-label="The page">
              <p class="muted small">
                {map.totalSessions} sessions · {map.path} · {map.viewport} · {map.from} to {map.to}
              </p>
              <HeatmapStage map={map} frame={data.frame} projectId={data.input.projectId!} />
            </section>
            <section class="card stack heatmap-side" aria-labelledby="top-elements">
              <h2 id="top-elements">Top elements</h2>
              <TopElements
                rows={data.elements}
                kind={map.kind}
                projectId={data.input.projectId!}
                from={map.from}
              />
            </section>
          </div>
        )
        : (
          <section class="card">
            <p class="muted">
              No recorded page views in this project and range yet. Pages appear here a minute or
              two after their sessions are recorded.
            </p>
          </section>
        )}
    </div>
  );
}

export const handler: Handlers<Data, DashboardState> = {
  async GET(_req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.render({ kind: "no-organization" });
    try {
      const input = readHeatmapsQuery(ctx.url);
      const projects = await listProjects(deps, viewer, {
        organizationId: viewer.activeOrganizationId,
      });
      const projectId = input.projectId ?? projects[0]?.id;
      const shown: Shown = {
        kind: "heatmap",
        input: { ...input, projectId },
        projects,
        pages: [],
        map: null,
        elements: [],
        frame: null,
      };
      if (!projectId) return ctx.render(shown);
      shown.pages = (await heatmapPagesOf(deps, viewer, { ...input, projectId })).pages;
      const path = input.path ?? shown.pages[0]?.path;
      if (!path) return ctx.render(shown);
      shown.input.path = path;
      const query = { ...input, projectId, path };
      shown.map = await heatmapOf(deps, viewer, query);
      shown.input = { ...shown.input, from: shown.map.from, to: shown.map.to };
      const clicks = input.kind === "scroll" ? "click" : input.kind;
      const ranked = input.mode === "element" && input.kind !== "scroll"
        ? shown.map
        : await heatmapOf(deps, viewer, { ...query, kind: clicks, mode: "element" });
      shown.elements = ranked.mode === "element" ? ranked.elements : [];
      const drawn = await heatmapFrame(deps, viewer, { projectId, path, band: input.viewport });
      if (drawn) {
        const { frame, sessionId } = drawn;
        shown.frame = {
          source: frame.document
            ? `src="${replayFrameHref(sessionId, 0)}"`
            : `srcdoc="${frame.srcdoc}"`,
          width: frame.width,
          height: frame.height,
        };
      }
      return ctx.render(shown);
    } catch (error) {
      // Another organization's project is not found here either.
      if (error instanceof AppError && error.kind === "not_found") return ctx.renderNotFound();
      return badRequest(error);
    }
  },
};
