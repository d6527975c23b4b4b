// Sends the outbox's due deliveries (docs/decisions.md "Alerts"): each claimed for a lease, sent
// once, then settled: a 2xx (or a mail accepted) is sent and never again; a 4xx other than 408 and
// 429, a redirect or a refused address fails at once; a 5xx, 408, 429, timeout or no answer is
// tried again after an exponential backoff, until 24 h after the delivery was made.
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { guardedPost, type PostOutcome } from "@/core/outbound/guarded_post.ts";
import type { AlertDeliveryRow, AlertRuleRow } from "@/db/queries/alerts/rules.ts";
import { claimDueDeliveries, ruleForDelivery, settleDelivery } from "@/db/queries/alerts/outbox.ts";
import type { AlertPayload, CreateAlertRuleInput } from "./schema.ts";
import { openSecret, signDelivery } from "./secret.ts";
import { emailMessage, slackBody } from "./messages.ts";

type Deps = Pick<AppDeps, "db" | "config" | "authSecret" | "mailer">;

export const SEND_TIMEOUT_MS = 10_000;
/** Longer than a send, so a claimed row is not claimed again while it is being sent. */
const LEASE_MS = 120_000;
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 4 * 3_600_000;
export const GIVE_UP_MS = 24 * 3_600_000;
const BATCH = 20;
const MAX_ROUNDS = 50;

/** The wait before attempt `attempts + 1`: 1 min, 2, 4, … at most 4 h. */
export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

type Sent = { kind: "sent" | "failed" | "retry"; status: number | null; error: string | null };

function judge(outcome: PostOutcome): Sent {
  if (!outcome.ok) {
    const kind = outcome.reason === "refused" ? "failed" : "retry";
    return { kind, status: null, error: outcome.detail };
  }
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: "sent", status, error: null };
  if (status >= 500 || status === 408 || status === 429) {
    return { kind: "retry", status, error: `answered ${status}` };
  }
  return { kind: "failed", status, error: `answered ${status}` };
}

async function send(deps: Deps, row: AlertDeliveryRow, rule: AlertRuleRow, now: Date) {
  const payload = row.payload as AlertPayload;
  const deliver = rule.deliver as CreateAlertRuleInput["deliver"];
  const options = {
    allowPrivate: deps.config.alertAllowPrivateTargets,
    timeoutMs: SEND_TIMEOUT_MS,
  };
  if (row.channel === "email") {
    if (!deps.mailer) return { kind: "failed", status: null, error: "mail is not configured" };
    if (!deliver.email?.length) return { kind: "failed", status: null, error: "no addresses" };
    try {
      await deps.mailer.send({ to: deliver.email.join(", "), ...emailMessage(payload) });
      return { kind: "sent", status: null, error: null } as Sent;
    } catch (error) {
      return { kind: "retry", status: null, error: String(error) } as Sent;
    }
  }
  const address = row.channel === "webhook" ? deliver.webhook : deliver.slack;
  if (!address) return { kind: "failed", status: null, error: "the rule no longer has it" };
  if (row.channel === "slack") {
    const body = JSON.stringify(slackBody(payload));
    return judge(
      await guardedPost(address, body, {
        ...options,
        headers: { "Content-Type": "application/json" },
      }),
    );
  }
  if (!rule.secret_sealed) return { kind: "failed", status: null, error: "no signing secret" };
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const secret = await openSecret(deps.authSecret, rule.secret_sealed);
  return judge(
    await guardedPost(address, body, {
      ...options,
      headers: {
        "Content-Type": "application/json",
        "X-Playhead-Delivery": row.id,
        "X-Playhead-Timestamp": timestamp,
        "X-Playhead-Signature": await signDelivery(secret, timestamp, body),
      },
    }),
  );
}

/** Sends what is due at `now` (of `only` these deliveries, when given); counts the outcomes. */
export async function runDeliveries(
  deps: Deps,
  now = new Date(),
  only?: string[],
): Promise<{ sent: number; retried: number; failed: number }> {
  const counts = { sent: 0, retried: 0, failed: 0 };
  const db = deps.db.kysely;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due = await claimDueDeliveries(db, now, LEASE_MS, BATCH, only);
    if (!due.length) break;
    for (const row of due) {
      const rule = await ruleForDelivery(db, row.rule_id);
      if (!rule) continue;
      const result = await send(deps, row, rule, now) as Sent;
      let kind = result.kind;
      const next = new Date(now.getTime() + retryDelay(row.attempts));
      if (kind === "retry" && next.getTime() > row.created_at.getTime() + GIVE_UP_MS) {
        kind = "failed";
      }
      await settleDelivery(db, row.id, {
        status: kind === "retry" ? "pending" : kind,
        nextAttemptAt: kind === "retry" ? next : undefined,
        lastStatus: result.status,
        lastError: result.error,
        now,
      });
      counts[kind === "retry" ? "retried" : kind]++;
      if (kind !== "sent") {
        log.warn("alerts:delivery:" + kind, {
          id: row.id,
          channel: row.channel,
          error: result.error,
        });
      }
    }
  }
  return counts;
}
