// The three reference pages of the peer benchmark, served from loopback.
import { heavyPage } from "@/bench/sdk/heavy_page.ts";
import type { ReferencePage } from "@/bench/sdk/peers/server.ts";
import { dashboardPage } from "./dashboard_page.ts";
import { docsPage } from "./docs_page.ts";

/** The heavy page as bench:sdk's overhead run has it (bench/sdk/mod.ts's PAGE). */
const HEAVY = { markdownChars: 9_000, fontKb: 575 };

export const PAGES: ReferencePage[] = [
  { name: "docs", path: "/docs", html: docsPage },
  { name: "dashboard", path: "/dashboard", html: dashboardPage },
  { name: "heavy", path: "/heavy", html: (head) => heavyPage({ ...HEAVY, head }) },
];
