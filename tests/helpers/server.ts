// The whole service on a random 127.0.0.1 port, for browser tests and load tests.
import type { Kysely } from "kysely";
import type { AppParts } from "../../app.ts";
import type { Database } from "../../db/schema.ts";
import { createTestApp } from "./app.ts";
import { insertProject } from "./factories.ts";

export interface TestServer {
  url: string;
  db: Kysely<Database>;
  createProject(): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

export async function startTestServer(parts: AppParts = {}): Promise<TestServer> {
  const testApp = await createTestApp({}, parts);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    testApp.app.fetch,
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    db: testApp.db.kysely,
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
