// @sentry/browser with its replay integration, every session recorded.
import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: `http://public@${location.host}/1`,
  tunnel: "/sink/sentry/envelope",
  integrations: [Sentry.replayIntegration()],
  replaysSessionSampleRate: 1,
  replaysOnErrorSampleRate: 1,
});
