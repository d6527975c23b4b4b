// @openreplay/tracker (its worker is inlined in the package); the page is http://, so secure mode
// is turned off as OpenReplay's docs say for local testing.
import Tracker from "@openreplay/tracker";

const tracker = new Tracker({
  projectKey: "bench",
  ingestPoint: `${location.origin}/sink/openreplay`,
  __DISABLE_SECURE_MODE: true,
});
void tracker.start();
