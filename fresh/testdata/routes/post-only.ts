import type { Handlers } from "$fresh/server.ts";

export const handler: Handlers = {
  POST: () => new Response("posted", { status: 201 }),
};
