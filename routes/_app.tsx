// The HTML document every page renders into: head, the design system's stylesheets in order, and
// the page's body.
import type { AppProps } from "$fresh/server.ts";
import { asset } from "$fresh/runtime.ts";

/** The design system: tokens and controls first, then the frame, components and charts. */
export const STYLESHEETS = [
  "/styles.css",
  "/frame.css",
  "/components.css",
  "/content.css",
  "/charts.css",
  "/replay.css",
  "/shares.css",
];

export default function App({ Component }: AppProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Playhead</title>
        <link rel="icon" type="image/svg+xml" href={asset("/favicon.svg")} />
        {STYLESHEETS.map((href) => <link key={href} rel="stylesheet" href={asset(href)} />)}
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
