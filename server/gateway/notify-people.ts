import { capabilityRegistry, capabilityTitle } from "../connectors/connector-registry";
import { approversOf } from "../connectors/sdk/define-capability";
import {
  escapeHtml,
  renderSummary,
  summaryHtml,
  summaryText,
} from "../connectors/sdk/render-decision-summary";
import { visibleText } from "../connectors/sdk/visible-text";
import type { Db } from "../db/client";
import { type AttentionEvent, subscribeAttention } from "../engine/attention-events";
import { logger } from "../logger";
import type { Mail, Mailer } from "./mailer";
import { quotedHtml, quotedText } from "./quoted-agent-text";

export type NotifyOptions = {
  db: Db;
  mailer: Mailer;
  /** Where people open the console (SIGNPOST_PUBLIC_URL): links in emails point there. */
  publicUrl: string;
  /** Failures are logged, never thrown: the agent's call finished long before. */
  log?: (message: string, error?: unknown) => void;
};

/** A part of an email in both forms: Signpost's own words, a rendered summary or a quote. */
type MailPart = { text: string; html: string };

const own = (line: string): MailPart => ({
  text: visibleText(line),
  html: `<p>${escapeHtml(visibleText(line))}</p>`,
});

function mailOf(to: string, subject: string, parts: MailPart[], link: { url: string; label: string }): Mail {
  return {
    to,
    subject: visibleText(subject).slice(0, 300),
    text: `${parts.map((p) => p.text).join("\n\n")}\n\n${link.label}: ${link.url}\n\nYou get this because email notifications are on for you in Signpost (Notifications page).\n`,
    html: `${parts.map((p) => p.html).join("")}<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p><p style="color:#555;font-size:12px">You get this because email notifications are on for you in Signpost (Notifications page).</p>`,
  };
}

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The emails for a new approval: to whoever the capability's policy lets decide, if they want email. */
export async function approvalMails(db: Db, publicUrl: string, approvalId: string): Promise<Mail[]> {
  const approval = await db.approval.findUnique({ where: { id: approvalId }, include: { action: true } });
  if (approval?.status !== "pending") return [];
  const { action } = approval;
  const rule = approversOf(capabilityRegistry().get(action.capability), approval.summary);
  const people = await db.user.findMany({
    where: {
      tenantId: approval.tenantId,
      notifyEmail: true,
      OR: [
        ...(rule.subject ? [{ id: action.userId }] : []),
        ...(rule.roles.length ? [{ role: { in: rule.roles } }] : []),
      ],
    },
    select: { email: true, name: true, id: true },
  });
  const agent = action.agentId
    ? await db.agent.findFirst({
        where: { id: action.agentId, tenantId: approval.tenantId },
        select: { name: true },
      })
    : null;
  const shown = renderSummary(approval.summary, capabilityTitle(action.capability));
  const sentence = shown.sentence ?? `Approve: ${shown.title}`;
  // The summary drawn by the one renderer the confirm page uses: every value neutralised there.
  const summary: MailPart = {
    text: `What you decide on:\n${summaryText(shown)}`,
    html: `<div style="border:1px solid #ddd;border-radius:6px;padding:10px;margin:8px 0">${summaryHtml(shown)}</div>`,
  };
  const url = `${publicUrl}/confirm/${encodeURIComponent(action.id)}`;
  const expires = approval.expiresAt ? ` It is valid until ${utc(approval.expiresAt)}.` : "";
  return people.map((p) =>
    mailOf(
      p.email,
      `Approval needed: ${sentence}`,
      [
        own(
          `${agent?.name ?? "An agent"} asks ${p.id === action.userId ? "you" : "for a decision"}: ${sentence}.`,
        ),
        summary,
        own(`Nothing happens until a person approves it on Signpost, signed in.${expires}`),
      ],
      { url, label: "Review and decide" },
    ),
  );
}

/** The emails for a new permission request: to the tenant's admins who want email. */
export async function permissionRequestMails(db: Db, publicUrl: string, requestId: string): Promise<Mail[]> {
  const request = await db.permissionRequest.findUnique({ where: { id: requestId } });
  if (request?.status !== "pending") return [];
  const [admins, agent] = await Promise.all([
    db.user.findMany({
      where: { tenantId: request.tenantId, role: "admin", notifyEmail: true },
      select: { email: true },
    }),
    db.agent.findFirst({
      where: { id: request.agentId, tenantId: request.tenantId },
      select: { name: true },
    }),
  ]);
  const what = `${agent?.name ?? "An agent"} asks to ${request.verb} ${request.target}`;
  return admins.map((a) =>
    mailOf(
      a.email,
      `Permission request: ${what}`,
      [
        own(`${what}.`),
        ...(request.reason
          ? [{ text: quotedText("Reason", request.reason), html: quotedHtml("Reason", request.reason) }]
          : []),
      ],
      { url: `${publicUrl}/permissions`, label: "Grant or deny" },
    ),
  );
}

/**
 * Emails people when something waits for them. Subscribes to attention events in this process;
 * each is handled on a later tick, after the operation that published it has answered, and a
 * failed send is logged. Returns the unsubscribe function.
 */
export function installNotifications(options: NotifyOptions): () => void {
  const log =
    options.log ??
    ((m, e) =>
      logger.warn(
        { event: "notification.failed", err: e instanceof Error ? e.message : String(e ?? "") },
        m,
      ));
  const handle = async (event: AttentionEvent) => {
    const mails =
      event.kind === "approval"
        ? await approvalMails(options.db, options.publicUrl, event.approvalId)
        : await permissionRequestMails(options.db, options.publicUrl, event.requestId);
    for (const mail of mails) {
      try {
        await options.mailer.send(mail);
      } catch (error) {
        log(`notifications: email to ${mail.to} failed`, error);
      }
    }
  };
  return subscribeAttention((event) => {
    setImmediate(() => {
      handle(event).catch((error) => log("notifications: could not prepare the email", error));
    });
  });
}
