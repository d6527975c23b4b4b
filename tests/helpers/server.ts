// The whole service on a random 127.0.0.1 port, for browser tests and load tests.
import type { Kysely } from "kysely";
import type { AppParts } from "@/app.ts";
import type { AppDeps } from "@/core/deps.ts";
import type { Database } from "@/db/schema.ts";
import type { CapturedLog } from "@/log.ts";
import { loadConfig } from "@/config.ts";
import { type FetchHandler, serve } from "@/serve.ts";
import { createTestApp } from "./app.ts";
import { insertProject } from "./factories.ts";

export interface TestServer {
  /** The origin browsers use, which is also APP_URL (so the same-origin check lets them in). */
  url: string;
  db: Kysely<Database>;
  deps: AppDeps;
  /** What the server logged so far. */
  logs: CapturedLog[];
  createProject(): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** The host name in `url` and APP_URL; WebAuthn needs a domain ("localhost"), not an IP. */
  host?: "127.0.0.1" | "localhost";
  env?: Record<string, string>;
}

/** Listens on 127.0.0.1 first, so APP_URL can name the port it got. */
export async function startTestServer(
  parts: AppParts = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  let handle: FetchHandler = () => new Response("starting", { status: 503 });
  // The production server (serve.ts) with the same connection timeouts as the app is given.
  const { http } = loadConfig({ NODE_ENV: "test", ...options.env });
  const server = await serve((req, info) => handle(req, info), {
    hostname: "127.0.0.1",
    port: 0,
    ...http,
  });
  const url = `http://${options.host ?? "127.0.0.1"}:${server.addr.port}`;
  const testApp = await createTestApp({ APP_URL: url, ...options.env }, parts)
    .catch(async (error) => {
      await server.shutdown();
      throw error;
    });
  handle = (req, info) => testApp.app.fetch(req, info);
  return {
    url,
    db: testApp.db.kysely,
    deps: testApp.deps,
    logs: testApp.logs,
    createProject: async () => {
      const project = await insertProject(testApp.db.kysely);
      return { id: project.id, key: project.key };
    },
    close: async () => {
      await server.shutdown();
      await testApp[Symbol.asyncDispose]();
    },
  };
}
