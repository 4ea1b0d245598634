import nodemailer from "nodemailer";
import { z } from "zod";
import { logger } from "../logger";

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/** `SIGNPOST_SMTP_URL`: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
export const smtpUrlSchema = z
  .string()
  .url()
  .refine((v) => /^smtps?:\/\//.test(v), "SIGNPOST_SMTP_URL must be an smtp:// or smtps:// URL");

/**
 * Email through the SMTP server `SIGNPOST_SMTP_URL` names (nodemailer), from `SIGNPOST_MAIL_FROM`
 * (default "Signpost <signpost@localhost>"). Null when no server is configured: nobody is emailed.
 */
export function mailerFromEnv(env: Record<string, string | undefined> = process.env): Mailer | null {
  const url = env.SIGNPOST_SMTP_URL;
  if (!url) return null;
  const parsed = smtpUrlSchema.safeParse(url);
  if (!parsed.success) {
    logger.error("notifications: SIGNPOST_SMTP_URL is not an smtp:// or smtps:// URL; no email is sent");
    return null;
  }
  const from = env.SIGNPOST_MAIL_FROM || "Signpost <signpost@localhost>";
  // Short timeouts: a mail server that hangs must not pile up pending sends.
  const u = new URL(parsed.data);
  const secure = u.protocol === "smtps:";
  const transport = nodemailer.createTransport({
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username
      ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
