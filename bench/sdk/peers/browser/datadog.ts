// @datadog/browser-rum with session replay on for every session, sent through `proxy` to the sink.
import { datadogRum } from "@datadog/browser-rum";

datadogRum.init({
  applicationId: "00000000-0000-4000-8000-000000000000",
  clientToken: "pub00000000000000000000000000000000",
  site: "datadoghq.com",
  service: "bench",
  proxy: `${location.origin}/sink/datadog`,
  sessionSampleRate: 100,
  sessionReplaySampleRate: 100,
});
