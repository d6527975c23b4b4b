import type { Handlers } from "$fresh/server.ts";

export const handler: Handlers = {
  GET() {
    throw new Error("handler exploded");
  },
};

export default function Boom() {
  return <p>never</p>;
}
