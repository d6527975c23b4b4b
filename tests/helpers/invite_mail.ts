// Reading invite mails received by the test SMTP server: the decoded text and its link.
import type { ReceivedMail } from "./smtp.ts";

/** The mail's text with quoted-printable soft breaks and escapes undone. */
export function mailText(mail: ReceivedMail): string {
  const headerEnd = mail.raw.search(/\r?\n\r?\n/);
  const body = headerEnd < 0 ? mail.raw : mail.raw.slice(headerEnd);
  return body.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
  );
}

/** The link an invite mail points to. */
export function inviteLinkIn(mail: ReceivedMail): string {
  const match = mailText(mail).match(/https?:\/\/\S+\/invites\b/);
  if (!match) throw new Error(`no invite link in mail:\n${mail.raw}`);
  return match[0];
}
