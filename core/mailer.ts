// Outgoing mail over SMTP (nodemailer). Port 465 uses implicit TLS; other ports upgrade with
// STARTTLS when offered, except on loopback, where test and relay servers speak plain SMTP.
// @ts-types="@types/nodemailer"
import nodemailer from "nodemailer";
import type { Config } from "@/config.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

/** A mailer for the configured SMTP account, or null when mail is not configured. */
export function createMailer(mail: Config["mail"]): Mailer | null {
  if (!mail) return null;
  const transport = nodemailer.createTransport({
    host: mail.host,
    port: mail.port,
    secure: mail.port === 465,
    ignoreTLS: LOOPBACK.test(mail.host),
    auth: { user: mail.user, pass: mail.password },
  });
  return {
    async send(message) {
      await transport.sendMail({ from: mail.from, ...message });
    },
  };
}
