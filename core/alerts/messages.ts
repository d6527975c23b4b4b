// What a delivery says on each channel (docs/decisions.md "Alerts"): the webhook's JSON is the
// payload itself; Slack gets an incoming-webhook body (`text`, `blocks`) and email plain text,
// both with the same facts. Only what a VIEWER of the project sees: counts, the group, links.
import type { AlertPayload } from "./schema.ts";

const SIGNAL_WORDS: Record<AlertPayload["signal"], string> = {
  rage_click: "a rage click",
  dead_click: "a dead click",
  error: "an error",
  network_error: "a failed request",
  saved_search: "a match of the saved search",
};

/** One line: `Checkout rage: 6 sessions with a rage click on /checkout in 10 minutes`. */
export function summaryLine(payload: AlertPayload): string {
  const minutes = Math.round(
    (Date.parse(payload.windowEnd) - Date.parse(payload.windowStart)) / 60_000,
  );
  const where = payload.group === null ? "" : ` on ${payload.group}`;
  const test = payload.test ? "[test] " : "";
  return `${test}${payload.rule.name}: ${payload.count} sessions with ` +
    `${SIGNAL_WORDS[payload.signal]}${where} in the last ${minutes} minutes`;
}

export function slackBody(payload: AlertPayload): { text: string; blocks: unknown[] } {
  const text = summaryLine(payload);
  const sessions = payload.sessions.map((s, i) => `<${s.url}|Replay ${i + 1}>`).join("  ·  ");
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${escapeSlack(text)}*` } },
      ...(sessions ? [{ type: "section", text: { type: "mrkdwn", text: sessions } }] : []),
      {
        type: "context",
        elements: [{
          type: "mrkdwn",
          text: `<${payload.dashboardUrl}|Alert rules> · ${payload.windowStart} – ` +
            payload.windowEnd,
        }],
      },
    ],
  };
}

export function emailMessage(payload: AlertPayload): { subject: string; text: string } {
  const line = summaryLine(payload);
  const sessions = payload.sessions.map((s) => `  ${s.url}`).join("\n");
  return {
    subject: `Playhead alert: ${line}`.slice(0, 200),
    text: `${line}\n\nWindow: ${payload.windowStart} – ${payload.windowEnd}\n\n` +
      (sessions ? `Replays:\n${sessions}\n\n` : "") +
      `Alert rules: ${payload.dashboardUrl}\n`,
  };
}

const escapeSlack = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
