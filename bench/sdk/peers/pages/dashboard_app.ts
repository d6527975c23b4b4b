// The dashboard reference page's application (runs in the browser, passed as source via
// toString()): a single-page app with four routes (history.pushState), tables re-sorted on header
// clicks, a filter box, a settings form, and a live chart updated twice a second on every route.

/** Installs the app on `#nav`, `#route` and `#chart`; call once after load. */
export function dashboardApp(): void {
  const $ = (id: string) => document.getElementById(id)!;
  // Deterministic data (mulberry32), so every run sees the same page.
  let seed = 42;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const NAMES = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Margaret", "Donald", "Anita"];
  const CITIES = ["Lyon", "Oslo", "Porto", "Graz", "Turku", "Ghent", "Brno", "Cork", "Split"];
  const STATES = ["paid", "pending", "refunded", "shipped"];
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const orders = Array.from({ length: 120 }, (_, i) => ({
    id: 10_000 + i,
    customer: `${pick(NAMES)} ${pick(NAMES)}son`,
    city: pick(CITIES),
    date: `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, "0")}-${
      String(1 + Math.floor(rand() * 28)).padStart(2, "0")
    }`,
    amount: Math.round(rand() * 90_000) / 100,
    status: pick(STATES),
  }));
  const customers = Array.from({ length: 80 }, (_, i) => ({
    name: `${pick(NAMES)} ${pick(NAMES)}sdottir ${i}`,
    email: `user${i}@example.com`,
    city: pick(CITIES),
    orders: Math.floor(rand() * 40),
  }));
  const ORDER_COLS = Object.keys(orders[0]);
  const esc = (s: unknown) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;");

  function table(
    rows: Record<string, unknown>[],
    cols: string[],
    [key, dir]: [string, number],
    id: string,
  ): string {
    const sorted = [...rows].sort((a, b) =>
      (a[key] as number) < (b[key] as number)
        ? -dir
        : (a[key] as number) > (b[key] as number)
        ? dir
        : 0
    );
    return `<table id="${id}"><thead><tr>${
      cols.map((c) =>
        `<th data-key="${c}" class="${c === key ? (dir > 0 ? "asc" : "desc") : ""}">${c}</th>`
      ).join("")
    }</tr></thead><tbody>${
      sorted.map((r) => `<tr>${cols.map((c) => `<td>${esc(r[c])}</td>`).join("")}</tr>`).join("")
    }</tbody></table>`;
  }

  const sort = { orders: { key: "id", dir: 1 }, customers: { key: "name", dir: 1 } };
  let filter = "";
  const routes: Record<string, () => string> = {
    overview: () =>
      `<h1>Overview</h1><section class="cards">${
        ["Revenue", "Orders", "Refunds", "Visitors"].map((t, i) =>
          `<div class="card"><h3>${t}</h3><p class="big">${(i + 1) * 1234}</p>` +
          `<p class="delta">+${i + 2}.${i}% vs last week</p></div>`
        ).join("")
      }</section><h2>Latest orders</h2>${
        table(orders.slice(0, 8), ORDER_COLS, ["date", -1], "latest")
      }`,
    orders: () =>
      `<h1>Orders</h1><p>${orders.length} orders · click a column to sort</p>${
        table(orders, ORDER_COLS, [sort.orders.key, sort.orders.dir], "orders")
      }`,
    customers: () =>
      `<h1>Customers</h1><input id="filter" placeholder="Filter customers" value="${esc(filter)}">${
        table(
          customers.filter((c) => c.name.toLowerCase().includes(filter.toLowerCase())),
          Object.keys(customers[0]),
          [sort.customers.key, sort.customers.dir],
          "customers",
        )
      }`,
    settings: () =>
      `<h1>Settings</h1><form id="settings"><label>Team name <input id="team" name="team"></label>
<label>Contact email <input id="email" type="email" name="email"></label>
<label>Timezone <select id="tz" name="tz"><option>UTC</option><option>Europe/Paris</option>
<option>America/New_York</option><option>Asia/Tokyo</option></select></label>
<label>Notes <textarea id="notes" name="notes" rows="4"></textarea></label>
<label class="check"><input id="weekly" type="checkbox" name="weekly"> Weekly report</label>
<button id="save" type="submit">Save</button><p id="saved" hidden>Saved.</p></form>`,
  };

  function show(route: string, push: boolean): void {
    const name = routes[route] ? route : "overview";
    if (push) history.pushState({}, "", `/dashboard/${name}`);
    document.title = `${name[0].toUpperCase()}${name.slice(1)} · Dashboard`;
    for (const a of document.querySelectorAll("#nav a")) {
      a.classList.toggle("active", a.getAttribute("data-route") === name);
    }
    $("route").innerHTML = routes[name]();
  }

  $("nav").addEventListener("click", (e) => {
    const a = (e.target as Element).closest("a[data-route]");
    if (!a) return;
    e.preventDefault();
    show(a.getAttribute("data-route")!, true);
  });
  addEventListener("popstate", () => show(location.pathname.split("/")[2] ?? "overview", false));
  $("route").addEventListener("click", (e) => {
    const th = (e.target as Element).closest("th[data-key]");
    if (!th) return;
    const which = th.closest("table")!.id as "orders" | "customers";
    if (!sort[which]) return;
    const key = th.getAttribute("data-key")!;
    sort[which] = { key, dir: sort[which].key === key ? -sort[which].dir : 1 };
    show(which, false);
  });
  $("route").addEventListener("input", (e) => {
    const target = e.target as HTMLInputElement;
    if (target.id !== "filter") return;
    filter = target.value;
    const at = target.selectionStart;
    show("customers", false);
    const input = $("filter") as HTMLInputElement;
    input.focus();
    input.setSelectionRange(at, at);
  });
  $("route").addEventListener("submit", (e) => {
    e.preventDefault();
    $("saved").hidden = false;
  });

  // The live chart: 60 points shifted twice a second; its SVG is built once and each tick sets
  // the path, the markers and the legend in place, as chart libraries (d3, Chart.js's DOM legends) do.
  const points = Array.from({ length: 60 }, () => 40 + rand() * 40);
  let tick = 0;
  const SVG = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 600 120");
  svg.setAttribute("width", "600");
  svg.setAttribute("height", "120");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "#36c");
  path.setAttribute("stroke-width", "2");
  svg.append(path);
  const markers = Array.from({ length: 6 }, (_, i) => {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", String(i * 100));
    c.setAttribute("r", "3");
    c.setAttribute("fill", "#36c");
    svg.append(c);
    return c;
  });
  const legend = document.createElement("p");
  legend.className = "legend";
  $("chart").append(svg, legend);
  function drawChart(): void {
    const max = Math.max(...points);
    const min = Math.min(...points);
    const y = (v: number) => (110 - ((v - min) / (max - min || 1)) * 100).toFixed(1);
    path.setAttribute("d", points.map((v, i) => `${i ? "L" : "M"}${i * 10},${y(v)}`).join(""));
    markers.forEach((c, i) => c.setAttribute("cy", y(points[i * 10])));
    legend.textContent = `Requests/s now ${points[59].toFixed(1)} · max ${max.toFixed(1)} · min ${
      min.toFixed(1)
    } · tick ${tick}`;
  }
  setInterval(() => {
    tick++;
    points.shift();
    points.push(Math.max(5, points[58] + (rand() - 0.5) * 12));
    drawChart();
  }, 500);
  drawChart();
  show(location.pathname.split("/")[2] ?? "overview", false);
}
