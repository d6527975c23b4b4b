import type { Handler } from "$fresh/server.ts";

// A function handler answers every method itself.
export const handler: Handler = (req) => new Response(`whole ${req.method}`);
