// The design system's stylesheets (static/), in cascade order: tokens and controls first, then the
// frame, components and charts. Every page links them (routes/_app.tsx), and an HTML export inlines
// the same ones (core/exports/html_file.ts), so an exported replay looks as the dashboard's does.
export const STYLESHEETS = [
  "styles.css",
  "frame.css",
  "components.css",
  "content.css",
  "charts.css",
  "replay.css",
  "shares.css",
] as const;
