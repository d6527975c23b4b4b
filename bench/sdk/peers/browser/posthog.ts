// posthog-js with session replay, its recorder bundled (not fetched from PostHog's CDN).
import { posthog } from "posthog-js";
import "posthog-js/dist/posthog-recorder";

posthog.init("phc_bench0000000000000000000000000000000000", {
  api_host: `${location.origin}/sink/posthog`,
  disable_external_dependency_loading: true,
  // Headless Chromium looks like a bot to posthog-js, which then drops every event; its own
  // message names this option for end-to-end tests.
  opt_out_useragent_filter: true,
});
