// The insights' lists: elements, errors, failing endpoints and pages, each row linking to the sessions it counts
// (the sessions page with the same range and projects, narrowed to them).
import type { Insights, InsightsInput } from "@/core/insights/schema.ts";
import type { SessionListInput } from "@/core/sessions/schema.ts";
import { sessionsHref } from "@/page_state/sessions.ts";
import { alertRuleHref } from "@/page_state/projects.ts";
import { heatmapsHref } from "@/page_state/heatmaps.ts";
import { foldedPath } from "@/core/ingest/endpoint.ts";
import { formatCount } from "@/utils/format.ts";
import { Time } from "@/components/ui/Time.tsx";

export type LinkScope = Pick<InsightsInput, "range" | "projectIds">;

/** "Alert me": the project's Alerts page with its form filled in for the row (no link without one). */
export function AlertMe(
  { project, signal, groupBy, group }: {
    project?: string;
    signal: string;
    groupBy: string;
    group: string;
  },
) {
  if (!project) return null;
  return (
    <>
      {" "}
      <a class="small muted" href={alertRuleHref(project, { signal, groupBy, group })}>Alert me</a>
    </>
  );
}

/** The sessions page with the insights' range and projects, narrowed by `filter`. */
export function sessionsLink(scope: LinkScope, filter: Partial<SessionListInput>): string {
  return sessionsHref({ ...scope, ...filter, sort: "signals" });
}

type Element = Insights["rageClicks"][number];

export function ElementTable(
  { rows, kind, scope, now, empty, alertProject }: {
    alertProject?: string;
    rows: Element[];
    kind: "rage_click" | "dead_click";
    scope: LinkScope;
    now: Date;
    empty: string;
  },
) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="table-scroll">
      <table class="table" data-testid={`insights-${kind}`}>
        <thead>
          <tr>
            <th scope="col">Element</th>
            <th scope="col" class="num">Sessions</th>
            <th scope="col" class="num">Users</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.selector}>
              <td class="truncate">
                <a href={sessionsLink(scope, { signals: [kind], element: r.selector })}>
                  {r.text ? `“${r.text}”` : <span class="muted">(no text)</span>}
                </a>{" "}
                <code class="muted">{r.selector}</code>
                <AlertMe
                  project={alertProject}
                  signal={kind}
                  groupBy="selector"
                  group={r.selector}
                />
              </td>
              <td class="num">{formatCount(r.sessions)}</td>
              <td class="num">{formatCount(r.users)}</td>
              <td>
                <Time iso={r.lastSeenAt} now={now} local={false} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EndpointTable(
  { rows, scope, now, alertProject }: {
    rows: Insights["endpoints"];
    scope: LinkScope;
    now: Date;
    alertProject?: string;
  },
) {
  if (rows.length === 0) {
    return <p class="muted">No failed requests in this range (or none recorded).</p>;
  }
  return (
    <div class="table-scroll">
      <table class="table" data-testid="insights-endpoints">
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col" class="num">Sessions</th>
            <th scope="col" class="num">Status</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.endpoint}>
              <td class="truncate">
                <a href={sessionsLink(scope, { signals: ["network_error"] })}>
                  <code>{r.endpoint}</code>
                </a>
                <AlertMe
                  project={alertProject}
                  signal="network_error"
                  groupBy="endpoint"
                  group={r.endpoint}
                />
              </td>
              <td class="num" title={`${formatCount(r.failures)} failed requests`}>
                {formatCount(r.sessions)}
              </td>
              <td class="num" title="the latest failure's">
                {r.lastStatus === 0 ? "none" : r.lastStatus}
              </td>
              <td>
                <Time iso={r.lastSeenAt} now={now} local={false} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorTable(
  { rows, scope, now, alertProject }: {
    rows: Insights["errors"];
    scope: LinkScope;
    now: Date;
    alertProject?: string;
  },
) {
  if (rows.length === 0) return <p class="muted">No errors in this range.</p>;
  return (
    <div class="table-scroll">
      <table class="table" data-testid="insights-errors">
        <thead>
          <tr>
            <th scope="col">Error group</th>
            <th scope="col" class="num">Sessions</th>
            <th scope="col" class="num">Users</th>
            <th scope="col">First seen</th>
            <th scope="col">Last seen</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.fingerprint}>
              <td class="error-group">
                <a
                  href={sessionsLink(scope, { signals: ["error"], error: r.fingerprint })}
                  title={r.fingerprint}
                >
                  {r.message || "(no message)"}
                </a>
                <AlertMe
                  project={alertProject}
                  signal="error"
                  groupBy="error_group"
                  group={r.fingerprint}
                />
                {/* The latest error's whole message and stack, folded until asked for */}
                <details class="error-group-detail">
                  <summary>{r.stack ? "Message and stack" : "Whole message"}</summary>
                  <pre>{[r.message, r.stack].filter(Boolean).join("\n")}</pre>
                </details>
              </td>
              <td class="num">{formatCount(r.sessions)}</td>
              <td class="num">{formatCount(r.users)}</td>
              <td>
                <Time iso={r.firstSeenAt} now={now} local={false} />
              </td>
              <td>
                <Time iso={r.lastSeenAt} now={now} local={false} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PageTable(
  { rows, scope, alertProject }: {
    rows: Insights["pages"];
    scope: LinkScope;
    alertProject?: string;
  },
) {
  if (rows.length === 0) return <p class="muted">No signals on any page in this range.</p>;
  return (
    <div class="table-scroll">
      <table class="table" data-testid="insights-pages">
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col" class="num">Sessions</th>
            <th scope="col" class="num">Errors</th>
            <th scope="col" class="num">Rage clicks</th>
            <th scope="col" class="num">Dead clicks</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.pathname}>
              <td class="truncate">
                <a href={sessionsLink(scope, { visited: r.pathname })}>{r.pathname}</a>
                <AlertMe
                  project={alertProject}
                  signal="rage_click"
                  groupBy="page"
                  group={r.pathname}
                />{" "}
                <a
                  class="small muted"
                  href={heatmapsHref({ projectId: alertProject, path: foldedPath(r.pathname) })}
                >
                  Heatmap
                </a>
              </td>
              <td class="num">{formatCount(r.sessions)}</td>
              <td class="num">{formatCount(r.errors)}</td>
              <td class="num">{formatCount(r.rageClicks)}</td>
              <td class="num">{formatCount(r.deadClicks)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
