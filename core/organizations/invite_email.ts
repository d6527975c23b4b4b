// The invite email (docs/decisions.md "Organizations, members and invites"): links to
// `{APP_URL}/invites`, logged `org:invite:email` (info when sent, warn when it failed). Development
// without mail logs the link instead, as it does sign-in codes.
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { unavailable } from "@/core/errors.ts";

type MailDeps = Pick<AppDeps, "config" | "mailer">;

export interface InviteLetter {
  inviteId: string;
  organizationId: string;
  organizationName: string;
  email: string;
  role: string;
  /** The inviter's name, else their email. */
  inviter: string;
}

/** Outside production an invite works without mail; in production it needs it (503). */
export function assertInviteMailAvailable(deps: MailDeps): void {
  if (!deps.mailer && deps.config.nodeEnv === "production") {
    throw unavailable("invites need mail: set MAIL_USER and MAIL_APP_PASSWORD");
  }
}

/** Sends (or in development logs) the invite; true when a mail went out or was logged. */
export async function sendInviteEmail(
  deps: MailDeps,
  letter: InviteLetter,
  context: { requestId?: string } = {},
): Promise<boolean> {
  const link = `${deps.config.appUrl}/invites`;
  const ids = { ...context, inviteId: letter.inviteId, organizationId: letter.organizationId };
  if (!deps.mailer) {
    log.info("org:invite:dev_link", { ...ids, email: letter.email, link });
    return true;
  }
  const who = mailSafe(letter.inviter);
  const organization = mailSafe(letter.organizationName);
  try {
    await deps.mailer.send({
      to: letter.email,
      subject: `${who} invited you to ${organization} on Playhead`,
      text: `${who} invited you to join ${organization} on Playhead as ` +
        `${letter.role}.\n\nSign in with this email address to accept or decline:\n${link}\n\n` +
        `The invite expires in 3 days. If you did not expect it, ignore this email.\n`,
    });
    log.info("org:invite:email", { ...ids, sent: true });
    return true;
  } catch (error) {
    log.warn("org:invite:email", { ...ids, sent: false, error: String(error) });
    return false;
  }
}

/**
 * A user-chosen name as mail text: control characters (CR/LF among them, which could start new
 * header lines or fake paragraphs) and line separators removed, runs of spaces collapsed.
 */
export function mailSafe(name: string): string {
  return name.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").replace(/\s+/g, " ").trim();
}
