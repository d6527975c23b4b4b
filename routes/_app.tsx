// The HTML document every page renders into: head, the design system's stylesheets in order
// (core/stylesheets.ts), and the page's body.
import type { AppProps } from "$fresh/server.ts";
import { asset } from "$fresh/runtime.ts";
import { STYLESHEETS } from "@/core/stylesheets.ts";

export default function App({ Component }: AppProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Playhead</title>
        <link rel="icon" type="image/svg+xml" href={asset("/favicon.svg")} />
        {STYLESHEETS.map((name) => <link key={name} rel="stylesheet" href={asset(`/${name}`)} />)}
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
