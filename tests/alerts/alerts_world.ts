// The alerts tests' world: a loopback receiver of our own (Deno.serve on 127.0.0.1:0) that keeps
// every request and answers the status the test sets, and sessions with signal markers on a page.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { insertMarker, insertSession } from "@/tests/helpers/sessions_factories.ts";

export interface Received {
  path: string;
  headers: Headers;
  body: string;
}

export function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({
      path: new URL(req.url).pathname,
      headers: req.headers,
      body: await req.text(),
    });
    return new Response("ok", { status });
  });
  return {
    received,
    url: `http://127.0.0.1:${server.addr.port}`,
    answer(next: number) {
      status = next;
    },
    of: (path: string) => received.filter((r) => r.path === path),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A session started `startedAgoMs` before `now` on `page`, with one `kind` marker at `at`. */
export async function sessionWithSignal(
  db: Kysely<Database>,
  project: { id: string; organization_id: string },
  options: { page: string; kind: string; at: number; startedAt: number; selector?: string },
) {
  const session = await insertSession(db, project, {
    createdAt: new Date(options.startedAt),
    url: `https://shop.test${options.page}`,
  });
  await insertMarker(db, session.id, {
    ts: options.startedAt,
    kind: "url",
    data: { pathname: options.page },
  });
  await insertMarker(db, session.id, {
    ts: options.at,
    kind: options.kind,
    data: { selector: options.selector ?? "#pay", text: "Pay" },
  });
  return session;
}
