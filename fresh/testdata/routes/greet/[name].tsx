import type { Handlers, PageProps } from "$fresh/server.ts";

interface Greeting {
  greeting: string;
}

export default function Greet({ data, params, route }: PageProps<Greeting>) {
  return <p id="greet" data-route={route} data-name={params.name}>{data.greeting}</p>;
}

export const handler: Handlers<Greeting> = {
  GET(_req, ctx) {
    if (ctx.params.name === "nobody") return ctx.renderNotFound({ greeting: "nobody" });
    return ctx.render({ greeting: `Hello, ${ctx.params.name}!` }, { headers: { "x-greet": "1" } });
  },
  POST(_req, ctx) {
    return new Response(null, { status: 303, headers: { location: `/greet/${ctx.params.name}` } });
  },
};
