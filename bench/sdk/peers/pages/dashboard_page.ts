// The dashboard reference page: a single-page app (routes, sortable tables, a filter box, a form,
// a chart updated twice a second); its application is dashboard_app.ts.
import { dashboardApp } from "./dashboard_app.ts";
import { LONGTASK_OBSERVER } from "./observer.ts";

const STYLE = `body{margin:0;font:14px/1.45 system-ui,sans-serif;display:grid;
grid-template-columns:200px 1fr;min-height:100vh;color:#222}
#nav{background:#1d2433;padding:16px 0}#nav a{display:block;color:#cfd6e4;padding:8px 20px;
text-decoration:none}#nav a.active{background:#2d3850;color:#fff}
main{padding:16px 24px;overflow:auto}#chart{border:1px solid #ddd;border-radius:6px;padding:8px;
margin-bottom:16px;max-width:620px}.legend{margin:4px 0 0;color:#555;font-size:12px}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px}.card{border:1px solid #ddd;
border-radius:6px;padding:8px 12px}.big{font-size:24px;margin:0}.delta{color:#2a7;margin:0}
table{border-collapse:collapse;width:100%;font-size:13px}th{cursor:pointer;text-align:left;
background:#f3f5f9}th.asc::after{content:" ▲"}th.desc::after{content:" ▼"}
td,th{border-bottom:1px solid #e5e7eb;padding:4px 8px}#filter{margin:8px 0;padding:6px;width:260px}
form{display:grid;gap:10px;max-width:420px}label{display:grid;gap:4px}label.check{display:block}
input,select,textarea{font:inherit;padding:6px}`;

/** The whole page; `head` holds the recorder's scripts (empty for the unrecorded run). */
export function dashboardPage(head: string): string {
  const link = (route: string) =>
    `<a href="/dashboard/${route}" data-route="${route}">${route[0].toUpperCase()}${
      route.slice(1)
    }</a>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Dashboard</title>
${LONGTASK_OBSERVER}
${head}
<style>${STYLE}</style></head>
<body><nav id="nav">${
    ["overview", "orders", "customers", "settings"].map(link).join("")
  }</nav><main><div id="chart"></div><div id="route"></div></main>
<script>(${dashboardApp.toString()})();</script>
</body></html>`;
}
