// /projects/:id/alerts (Settings → Projects → Alerts; docs/decisions.md "Alerts"): the project's
// alert rules with their last firing and recent deliveries, a form to make one (filled from the
// query, as the insights' "Alert me" links open it) or change one; a webhook's signing secret is
// shown once, on the answer to its creation or rotation. ADMIN and OWNER act; a VIEWER reads.
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { projectHref } from "@/page_state/projects.ts";
import { AlertRuleForm, type RuleDraft } from "@/components/alerts/AlertRuleForm.tsx";
import { AlertRuleList } from "@/components/alerts/AlertRuleList.tsx";
import { Notice } from "@/components/ui/Notice.tsx";
import { atLeast } from "@/core/permissions.ts";
import { getProject } from "@/core/projects/projects.ts";
import type { ProjectView } from "@/core/projects/schema.ts";
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
  type AlertDeliveryOut,
  alertRuleForm,
  type AlertRuleOut,
  createAlertRuleBody,
  updateAlertRuleBody,
} from "@/core/alerts/schema.ts";
import { parseWith } from "@/core/validate.ts";
import { formPage } from "@/http/form_page.ts";
import { orNull } from "@/http/found.ts";
import { type FormFailure, parseForm } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

const NOTICES = {
  created: "Rule created.",
  saved: "Rule saved.",
  deleted: "Rule deleted.",
  tested: "Test delivery sent: its status is under Recent deliveries.",
};

interface Data {
  project: ProjectView;
  rules: AlertRuleOut[];
  deliveries: Record<string, AlertDeliveryOut[]>;
  editing?: AlertRuleOut;
  draft: RuleDraft;
  editable: boolean;
  /** A signing secret, in the answer that made it only. */
  secret?: string;
  failure?: FormFailure;
}

export default function ProjectAlerts({ data, url }: PageProps<Data, DashboardState>) {
  const { project, rules, deliveries, editing, draft, editable, secret, failure } = data;
  return (
    <>
      <Head>
        <title>{project.name} alerts · Playhead</title>
      </Head>
      <h1>{project.name} alerts</h1>
      <Notice url={url} notices={NOTICES} failure={failure} />
      {secret && (
        <section class="card stack" data-testid="alert-secret">
          <h2>Webhook signing secret</h2>
          <p>
            Copy it now: it is not shown again. Each delivery carries{" "}
            <code>X-Playhead-Signature: sha256=HMAC-SHA256(secret, timestamp + "." + body)</code>.
          </p>
          <pre><code>{secret}</code></pre>
        </section>
      )}
      <section class="card stack" aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules</h2>
        <AlertRuleList rules={rules} deliveries={deliveries} editable={editable} />
      </section>
      <section class="card stack" aria-labelledby="form-heading">
        <h2 id="form-heading">{editing ? `Change “${editing.name}”` : "New rule"}</h2>
        <p class="muted small">
          A rule fires for a group (a page, an element, an error group, an endpoint) when at least
          that many sessions had the signal there within the window, then stays silent for that
          group. Deliveries carry counts and replay links only.
        </p>
        <AlertRuleForm rule={editing} draft={draft} editable={editable} />
      </section>
      <p>
        <a href={projectHref(project.id, "settings")}>Project settings</a> ·{" "}
        <a href="/insights">Insights</a>
      </p>
    </>
  );
}

async function load(ctx: FreshContext<DashboardState>): Promise<Data | null> {
  const { state: { deps, viewer }, params, url } = ctx;
  if (!viewer.activeOrganizationId) return null;
  const project = await orNull(getProject(deps, viewer, { id: params.id }));
  if (!project) return null;
  const { rules } = await listAlertRules(deps, viewer, project.id);
  const deliveries: Record<string, AlertDeliveryOut[]> = {};
  for (const rule of rules) {
    deliveries[rule.id] = (await ruleDeliveries(deps, viewer, rule.id)).deliveries;
  }
  const q = url.searchParams;
  const group = q.get("group");
  const signal = q.get("signal") ?? undefined;
  const draft: RuleDraft = {
    signal,
    groupBy: q.get("groupBy"),
    group,
    name: q.get("name") ?? (group ? `${signal?.replace("_", " ") ?? "Signal"} on ${group}` : ""),
  };
  return {
    project,
    rules,
    deliveries,
    editing: rules.find((r) => r.id === q.get("edit")),
    draft,
    editable: viewer.role !== null && atLeast(viewer.role, "ADMIN"),
  };
}

export const handler = formPage(load, (ctx) => {
  const { state: { deps, viewer }, params } = ctx;
  const id = (form: FormData) => String(form.get("id") ?? "");
  const showSecret = async (secret: string) => {
    const data = await load(ctx);
    return ctx.render({ ...data!, secret });
  };
  return {
    create: async (form) => {
      const fields = parseForm(alertRuleForm, form);
      const input = parseWith(createAlertRuleBody, { ...fields, projectId: params.id }, "form");
      const created = await createAlertRule(deps, viewer, input);
      return created.secret ? await showSecret(created.secret) : "created";
    },
    save: async (form) => {
      const { name, threshold, windowMinutes, cooldownMinutes, deliver } = parseForm(
        alertRuleForm,
        form,
      );
      const input = parseWith(
        updateAlertRuleBody,
        { name, threshold, windowMinutes, cooldownMinutes, deliver },
        "form",
      );
      const changed = await changeAlertRule(deps, viewer, id(form), input);
      return changed.secret ? await showSecret(changed.secret) : "saved";
    },
    rotate: async (form) =>
      await showSecret((await rotateAlertSecret(deps, viewer, id(form))).secret),
    test: async (form) => {
      await sendTestDelivery(deps, viewer, id(form));
      return "tested";
    },
    delete: async (form) => {
      await removeAlertRule(deps, viewer, id(form));
      return "deleted";
    },
  };
});
