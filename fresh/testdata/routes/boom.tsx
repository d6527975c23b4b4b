import type { Handlers } from "$fresh/server.ts";

export const handler: Handlers = {
  GET(req) {
    throw new Error(new URL(req.url).searchParams.has("busy") ? "busy" : "handler exploded");
  },
};

export default function Boom() {
  return <p>never</p>;
}
