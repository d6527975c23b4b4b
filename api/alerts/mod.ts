// /api/alert-rules (docs/decisions.md "Alerts"): ADMIN+ creates, changes, deletes rules, rotates a
// webhook's secret and sends a test; every member lists rules and their deliveries.
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  changeAlertRule,
  createAlertRule,
  listAlertRules,
  removeAlertRule,
  rotateAlertSecret,
  ruleDeliveries,
} from "@/core/alerts/rules.ts";
import { sendTestDelivery } from "@/core/alerts/test_delivery.ts";
import {
  alertDeliveryList,
  alertRuleList,
  createAlertRuleBody,
  createdAlertRule,
  rotatedSecret,
  updateAlertRuleBody,
} from "@/core/alerts/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body, query } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "alerts", auth: "cookie", ...route });
const RULE = { id: "an alert rule of the active organization" };
const listQuery = z.strictObject({
  projectId: z.string().min(1).max(100).optional().meta({ description: "one project's rules" }),
});

export function alertRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(noStore());

  app.post(
    "/",
    doc({
      summary: "Make an alert rule",
      description: "Fires for a group when at least `threshold` distinct sessions had `signal` " +
        "in it within the last `windowMinutes`, then stays silent for that group for " +
        "`cooldownMinutes`. `secret` (a webhook's signing secret) is in this answer only. " +
        "Webhook and Slack addresses must be https: and public (400 naming the field).",
      role: "ADMIN",
      responses: { 201: { description: "the rule", body: createdAlertRule } },
      errors: [400, 404],
    }),
    body(createAlertRuleBody),
    async (c) => c.json(await createAlertRule(deps, requireViewer(c), c.req.valid("json")), 201),
  );

  app.get(
    "/",
    doc({
      summary: "The organization's alert rules, with their last firing",
      responses: { 200: { description: "oldest first", body: alertRuleList } },
      errors: [400],
    }),
    query(listQuery),
    async (c) =>
      c.json(await listAlertRules(deps, requireViewer(c), c.req.valid("query").projectId ?? null)),
  );

  app.patch(
    "/:id",
    doc({
      summary: "Change an alert rule",
      description: "A webhook added to a rule without one answers its new `secret`.",
      role: "ADMIN",
      params: RULE,
      responses: { 200: { description: "the rule", body: createdAlertRule } },
      errors: [400, 404],
    }),
    body(updateAlertRuleBody),
    async (c) =>
      c.json(await changeAlertRule(deps, requireViewer(c), c.req.param("id"), c.req.valid("json"))),
  );

  app.delete(
    "/:id",
    doc({
      summary: "Delete an alert rule, its firings and deliveries",
      role: "ADMIN",
      params: RULE,
      responses: { 204: { description: "deleted" } },
      errors: [404],
    }),
    async (c) => {
      await removeAlertRule(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );

  app.post(
    "/:id/secret",
    doc({
      summary: "Rotate the webhook's signing secret (shown in this answer only)",
      role: "ADMIN",
      params: RULE,
      responses: { 200: { description: "the new secret", body: rotatedSecret } },
      errors: [400, 404],
    }),
    async (c) => c.json(await rotateAlertSecret(deps, requireViewer(c), c.req.param("id"))),
  );

  app.post(
    "/:id/test",
    doc({
      summary: "Send a sample delivery on each of the rule's channels",
      role: "ADMIN",
      params: RULE,
      responses: {
        200: {
          description: "deliveries made (see their status in /deliveries)",
          body: z.strictObject({ deliveries: z.number().int() }),
        },
      },
      errors: [404],
    }),
    async (c) => c.json(await sendTestDelivery(deps, requireViewer(c), c.req.param("id"))),
  );

  app.get(
    "/:id/deliveries",
    doc({
      summary: "The rule's deliveries, newest first, with status and attempts",
      params: RULE,
      responses: { 200: { description: "at most 100", body: alertDeliveryList } },
      errors: [404],
    }),
    async (c) => c.json(await ruleDeliveries(deps, requireViewer(c), c.req.param("id"))),
  );

  return app;
}
