import { actionPage } from "../connectors/sdk/action-page";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { type FormField, fieldList, formBlock, link } from "../connectors/sdk/markdown";
import { NOT_FOUND_FOR, outcomePage } from "../connectors/sdk/route-pages";
import { summaryMarkdown } from "../connectors/sdk/summary-markdown";

/** `actions://` routes: one running action, its confirm form, its verification. */
export const ACTIONS_ROUTES: RouteDefinition[] = [
  {
    pattern: "actions://{action_id}",
    title: "Action",
    description: "One running action: its node, summary, the form of its next step, and approval status.",
    keywords: ["action", "progress", "status", "approval"],
    async render(match, backend) {
      const outcome = await backend.action(match.params.action_id ?? "");
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", match.params.action_id ?? "");
      return actionPage(outcome, backend);
    },
    async submit(match, fields, backend) {
      const actionId = match.params.action_id ?? "";
      const { version, ...patch } = fields;
      const numeric = typeof version === "number" ? version : Number.parseInt(String(version ?? ""), 10);
      if (!Number.isInteger(numeric)) {
        const current = await backend.action(actionId);
        if (current.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
        const page = actionPage(current, backend);
        return {
          ...page,
          outcome: "rejected",
          markdown: `### Problems\n\n- **version:** required (an integer: the version shown on this page)\n\n${page.markdown}`,
        };
      }
      const outcome = await backend.advanceAction({ action_id: actionId, version: numeric, patch });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      if (outcome.outcome === "conflict" || (outcome.outcome === "rejected" && !outcome.validation_errors)) {
        return {
          ...outcomePage(`Action ${actionId}`, outcome, {
            label: "Re-read the action",
            uri: `actions://${actionId}`,
          }),
          actionId,
        };
      }
      return actionPage(outcome, backend, { sent: true });
    },
  },
  {
    pattern: "actions://{action_id}/confirm",
    title: "Confirm action",
    description:
      "Form: execute an approved action's effect once (needs the person's approval and an idempotency key).",
    keywords: ["confirm", "execute", "pay", "submit", "approved"],
    async render(match, backend) {
      const actionId = match.params.action_id ?? "";
      const current = await backend.action(actionId);
      if (current.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      const fields: FormField[] = [
        {
          name: "idempotency_key",
          type: "string",
          required: true,
          description: "a unique key for this confirmation; resubmitting with it never repeats the effect",
        },
        {
          name: "version",
          type: "integer",
          required: false,
          description: "the approved version",
          value: current.version,
        },
      ];
      return {
        title: `Confirm action ${actionId}`,
        outcome: "applied",
        markdown: `${fieldList([
          ["Capability", current.capability],
          ["Status", current.status],
          ["Version", current.version],
        ])}\n\n${current.summary && typeof current.summary === "object" ? `## Summary\n\n${summaryMarkdown(current.summary)}\n\n` : ""}${formBlock(`actions://${actionId}/confirm`, fields)}\n\n${link("Back to the action", `actions://${actionId}`)}`,
        actionId,
      };
    },
    async submit(match, fields, backend) {
      const actionId = match.params.action_id ?? "";
      const key = typeof fields.idempotency_key === "string" ? fields.idempotency_key : "";
      const version = typeof fields.version === "number" ? fields.version : undefined;
      const outcome = await backend.confirmAction({
        action_id: actionId,
        idempotency_key: key,
        ...(version ? { version } : {}),
      });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      return {
        ...actionPage({ ...outcome, action_id: outcome.action_id ?? actionId }, backend),
        title: `Confirm action ${actionId}`,
      };
    },
  },
  {
    pattern: "actions://{action_id}/verify",
    title: "Verify action",
    description: "Asks the business system whether the action's effect really happened (read-only).",
    keywords: ["verify", "check", "did it work", "payment status"],
    async render(match, backend) {
      const actionId = match.params.action_id ?? "";
      const outcome = await backend.verifyAction({ action_id: actionId });
      if (outcome.outcome === "not_found") return NOT_FOUND_FOR("action", actionId);
      return {
        ...actionPage({ ...outcome, action_id: outcome.action_id ?? actionId }, backend),
        title: `Verify action ${actionId}`,
      };
    },
  },
];
