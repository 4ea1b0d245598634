// stays-whole: the action tools' one result path (text, structuredContent, elicitation, tasks).
import {
  acceptedContent,
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  type McpServer,
  type ServerContext,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import { createElement } from "react";
import { capabilityTitle } from "@/server/connectors/connector-registry";
import { approvalNextSteps } from "@/server/connectors/sdk/approval-next-steps";
import { paidChoiceLines } from "@/server/connectors/sdk/choice-lines";
import { moneyRenderer } from "@/server/connectors/sdk/money-renderer";
import { argumentBoundsErrors } from "@/server/gateway/argument-bounds";
import { redactText } from "@/server/redact-secrets";
import { ConfirmationSummary } from "../components/confirmation-summary";
import { approvalPrompt } from "./approval-message";
import { clientDeclaresTasks, createApprovalTask } from "./approval-tasks";
import { clientCapabilities } from "./client-capabilities";
import { compactSchema } from "./compact-schema";
import { APPROVAL_META_KEY, CONFIRM_APP_URI } from "./confirm-app-html";
import { declinedInHost } from "./declined-in-host";
import type { ActionToolName, GatewayOutcome, GatewayPort } from "./gateway-port";
import { renderOutcomeText } from "./outcome-text";
import { withReadFirst } from "./question-read";
import { peekActionId, type SignpostRequestStateCodec } from "./request-state";

type MoneyOf = { keys?: string[]; currency?: string } | undefined;

const DESCRIPTIONS: Record<ActionToolName, string> = {
  // Set CH: a player searched capabilities before five starts by words; the search says so itself.
  search_capabilities: "Capabilities for the user's words; start_action needs no search.",
  // Said up front (issue 23): a start that needs nobody's approval is the change, key or not. Set O:
  // told it could take "a capability with every field they gave", models searched capabilities,
  // then opened the record for its ids, before a start the words alone did in one call. Set R:
  // "it finds the record and fields" left the capability to find, and models searched for it first.
  start_action:
    "Start a change from the user's words alone: it finds the capability, record and fields and says what it took; it runs now unless someone must approve.",
  get_context: "Read an action or a record.",
  // Played (set J): a rewrite by advance sent the comment, which the model meant to confirm after.
  advance_action: "Set fields; once complete it runs unless someone must approve.",
  confirm_action: "Execute the effect, once approved where asked.",
  verify_action: "Check an unknown effect with the system of record.",
  recover_action: "Reconcile an unknown effect, when next_actions offer it.",
  cancel_action: "End an open action before its effect.",
};

const ANNOTATIONS: Record<ActionToolName, ToolAnnotations> = {
  search_capabilities: { readOnlyHint: true, openWorldHint: false },
  start_action: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  get_context: { readOnlyHint: true, openWorldHint: false },
  advance_action: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  confirm_action: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  verify_action: { readOnlyHint: true, openWorldHint: true },
  recover_action: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  cancel_action: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const TITLES: Record<ActionToolName, string> = {
  search_capabilities: "Search capabilities",
  start_action: "Start action",
  get_context: "Get context",
  advance_action: "Advance action",
  confirm_action: "Confirm action",
  verify_action: "Verify action",
  recover_action: "Recover action",
  cancel_action: "Cancel action",
};

/** Tools whose results can land on a confirmation node: hosts with MCP Apps show the screen. */
const REACHES_CONFIRMATION = new Set<ActionToolName>(["start_action", "advance_action", "confirm_action"]);

export interface ActionToolsOptions<Ctx> {
  gateway: GatewayPort<Ctx>;
  /** The caller of the request a call came in (read per call: a server may serve many requests). */
  contextOf(ctx: ServerContext): Ctx;
  requestState: SignpostRequestStateCodec;
  /**
   * The read that answers words that only ask (mcp/question-read.ts), shown before the
   * capabilities search_capabilities finds; absent where the caller has no browse face.
   */
  readFirst?: (ctx: ServerContext, query: string) => Promise<string | null>;
}

/** One call's options: the request's caller resolved once, at the start of the call. */
interface CallOptions<Ctx> {
  gateway: GatewayPort<Ctx>;
  context: Ctx;
  requestState: SignpostRequestStateCodec;
  readFirst?: ActionToolsOptions<Ctx>["readFirst"];
}

/** The action face: eight thin adapters over the gateway operations. */
export function registerActionTools<Ctx>(server: McpServer, options: ActionToolsOptions<Ctx>): void {
  const { gateway } = options;
  for (const name of Object.keys(DESCRIPTIONS) as ActionToolName[]) {
    const operation = gateway.operations[name];
    server.registerTool(
      name,
      {
        title: TITLES[name],
        description: DESCRIPTIONS[name],
        // The strict schema is listed as is, but checked by the gateway: a wrong argument gets
        // the typed, audited invalid_arguments outcome (see runActionTool).
        inputSchema: compactSchema(operation.input, { validation: "handler" }),
        // No outputSchema: the outcome object is open (each operation adds its fields), so a
        // schema would only repeat outcome/message/next_actions to every client on every list.
        annotations: ANNOTATIONS[name],
        ...(REACHES_CONFIRMATION.has(name) ? { _meta: { ui: { resourceUri: CONFIRM_APP_URI } } } : {}),
      },
      async (args: Record<string, unknown>, ctx: ServerContext) =>
        runActionTool(name, args, ctx, {
          gateway,
          context: options.contextOf(ctx),
          requestState: options.requestState,
          readFirst: options.readFirst,
        }),
    );
  }
}

async function runActionTool<Ctx>(
  name: ActionToolName,
  args: Record<string, unknown>,
  ctx: ServerContext,
  options: CallOptions<Ctx>,
): Promise<CallToolResult | InputRequiredResult> {
  const { gateway, context } = options;
  const operation = gateway.operations[name];

  // Arguments arrive unvalidated. A wrong one goes to the gateway as sent: it parses strictly,
  // audits and answers rejected / invalid_arguments naming each field. Such a call never
  // elicits, and never spends a retried round's requestState. Arguments past the size and
  // depth bounds go the same way without a parse here (the gateway refuses them before zod).
  const parsed = argumentBoundsErrors(args).length ? null : operation.input.safeParse(args);
  if (!parsed?.success) return toolResult(await operation.run(context, args), undefined);
  const valid = parsed.data as Record<string, unknown>;
  const rawState = ctx.mcpReq.requestState<string>();

  // A retried round of an input_required exchange: the signed state says which action and
  // version the user's answers belong to. Verified here, so a bad state is a typed refusal.
  if (typeof rawState === "string" && rawState !== "") {
    return resumeRound(name, valid, rawState, ctx, options);
  }

  // A question's answer is a read: the page that answers it comes first, in the same call.
  if (name === "search_capabilities" && options.readFirst && typeof valid.query === "string") {
    const [found, read] = await Promise.all([
      operation.run(context, valid),
      options.readFirst(ctx, valid.query),
    ]);
    return withReadFirst(toolResult(found, undefined, name), read);
  }
  const outcome = await operation.run(context, valid);
  return shapeResult(
    name,
    outcome,
    ctx,
    options,
    0,
    typeof valid.action_id === "string" ? valid.action_id : undefined,
  );
}

async function resumeRound<Ctx>(
  name: ActionToolName,
  args: Record<string, unknown>,
  rawState: string,
  ctx: ServerContext,
  options: CallOptions<Ctx>,
): Promise<CallToolResult | InputRequiredResult> {
  const { gateway, context } = options;
  const actionId = typeof args.action_id === "string" ? args.action_id : peekActionId(rawState);
  const current = actionId
    ? await gateway.operations.get_context.run(context, { action_id: actionId })
    : null;
  const verified = await options.requestState.verify(rawState, ctx, {
    agent_id: gateway.agentIdOf(context),
    action_id: actionId ?? "",
    version: typeof current?.version === "number" ? current.version : undefined,
  });
  if (!verified.ok) {
    return toolResult(
      {
        outcome: "rejected",
        reason: verified.reason,
        message: verified.message,
        retryable: false,
        action_id: actionId,
        next_actions: actionId
          ? [
              {
                tool: "get_context",
                args: { action_id: actionId },
                description: "Re-read the action and continue from its current state",
              },
            ]
          : [],
      },
      undefined,
    );
  }
  const { state } = verified;
  if (state.purpose === "fill") {
    const answers = acceptedContent(ctx.mcpReq.inputResponses, "fields");
    if (!answers) {
      // Declined or cancelled: hand back the action as it stands.
      return shapeResult(
        name,
        current ?? (await gateway.operations.get_context.run(context, { action_id: state.action_id })),
        ctx,
        options,
        1,
      );
    }
    const outcome = await gateway.operations.advance_action.run(context, {
      action_id: state.action_id,
      version: state.version,
      patch: answers,
    });
    return shapeResult("advance_action", outcome, ctx, options, 1);
  }
  // Declined in the host: the pending approval is withdrawn and the action cancelled (only while
  // it still waits at that version), said as such; nothing moves (declined-in-host.ts).
  if (state.purpose === "approve" && declinedInHost(ctx) && gateway.declineApproval) {
    const outcome = await gateway.declineApproval(context, {
      action_id: state.action_id,
      version: state.version,
    });
    return shapeResult("cancel_action", outcome, ctx, options, 1);
  }
  // purpose "approve" on a start or advance that stopped at the person's approval: the person
  // has decided on the screen, so the round finishes the flow: confirm that action at that
  // version (the server re-checks the approval; a refusal answers as confirm does). The key is
  // the round's own, so a host that retries this round again gets the first outcome back.
  if (state.purpose === "approve" && name !== "confirm_action") {
    const outcome = await gateway.operations.confirm_action.run(context, {
      action_id: state.action_id,
      version: state.version,
      idempotency_key: `approved:${state.action_id}:${state.version}`,
    });
    return shapeResult("confirm_action", outcome, ctx, options, 1);
  }
  // purpose "approve" on a confirm: the person was sent to the confirmation screen; "connect": to
  // connect their own account at the system. Either way, the same call again.
  const outcome = await gateway.operations[name].run(context, args);
  return shapeResult(name, outcome, ctx, options, 1);
}

async function shapeResult<Ctx>(
  name: ActionToolName,
  outcome: GatewayOutcome,
  ctx: ServerContext,
  options: CallOptions<Ctx>,
  round: number,
  /** The action the call named, if any: a connect round is bound to it. */
  calledActionId?: string,
): Promise<CallToolResult | InputRequiredResult> {
  const { gateway, context } = options;
  const caps = clientCapabilities(ctx);
  const actionId = typeof outcome.action_id === "string" ? outcome.action_id : undefined;
  const version = typeof outcome.version === "number" ? outcome.version : undefined;

  // Clients that can wait on a task (MCP Tasks extension): a call that stopped at a person's
  // approval answers with a task that completes when they decide (see approval-tasks.ts).
  const tasks = gateway.approvalTasks;
  if (
    round === 0 &&
    tasks &&
    actionId &&
    version !== undefined &&
    waitsOnPerson(name, outcome) &&
    clientDeclaresTasks(ctx)
  ) {
    const task = await createApprovalTask(tasks, context, {
      actionId,
      version,
      tool: name,
      approvalUrl:
        typeof outcome.approval_url === "string" ? outcome.approval_url : gateway.approvalUrl(actionId),
    });
    // A CreateTaskResult in lieu of the CallToolResult: the SDK passes a handler's resultType on.
    return task as unknown as CallToolResult;
  }

  // A call that needs the person's own account at a system they have not connected: clients that
  // can open a URL for the person send them to Signpost's connect page (the link identifies no one:
  // whoever opens it signs in and connects their own account); the retry is the same call again.
  if (
    round === 0 &&
    caps?.elicitation?.url &&
    outcome.outcome === "connection_required" &&
    typeof outcome.connect_url === "string"
  ) {
    return inputRequired({
      inputRequests: {
        connection: inputRequired.elicitUrl({ message: outcome.message, url: outcome.connect_url }),
      },
      requestState: await options.requestState.mint(
        {
          agent_id: gateway.agentIdOf(context),
          action_id: calledActionId ?? actionId ?? "",
          version: version ?? 0,
          purpose: "connect",
        },
        ctx,
      ),
    });
  }

  // A host that opens URLs opens only its own person's approvals: another's (an admin's) is said.
  // Asked only of an answer waiting on an approval (two reads), the one case it changes.
  const awaits = outcome.status === "awaiting_approval" || outcome.reason === "approval_pending";
  const opensUrls =
    !!caps?.elicitation?.url &&
    (!awaits || !actionId || !gateway.mayApprove || (await gateway.mayApprove(context, actionId)));
  // Modern clients that can elicit: ask the person directly instead of bouncing through the model.
  if (round === 0 && caps?.elicitation && actionId && version !== undefined) {
    // A confirm refused for want of the approval, or a start or advance that stopped at it: the
    // host sends the person to the screen and retries the call once they decided, and that
    // retry confirms (resumeRound), so the model makes one call for start, approval and effect.
    const stoppedAtApproval =
      (outcome.outcome === "rejected" && outcome.reason === "approval_pending") ||
      ((name === "start_action" || name === "advance_action") && waitsForApproval(outcome));
    if (stoppedAtApproval && opensUrls) {
      const url =
        typeof outcome.approval_url === "string" ? outcome.approval_url : gateway.approvalUrl(actionId);
      return inputRequired({
        inputRequests: {
          approval: inputRequired.elicitUrl({
            message: approvalPrompt(outcome.summary, actionId, version),
            url,
          }),
        },
        requestState: await options.requestState.mint(
          { agent_id: gateway.agentIdOf(context), action_id: actionId, version, purpose: "approve" },
          ctx,
        ),
      });
    }
    const form = missingFieldsForm(outcome);
    if (
      (name === "start_action" || name === "advance_action") &&
      form &&
      (caps.elicitation.form || !caps.elicitation.url)
    ) {
      return inputRequired({
        inputRequests: {
          fields: inputRequired.elicit({
            // A paid choice comes with every choice's price: the person sees what each one costs.
            message: [
              `Signpost needs: ${Object.keys(form.properties).join(", ")}`,
              ...paidChoiceLines(outcome.paid_choices, moneyRenderer(outcome.money_of as MoneyOf)),
            ].join("\n"),
            // Built from primitive JSON Schema types only (see missingFieldsForm).
            requestedSchema: form as Parameters<typeof inputRequired.elicit>[0]["requestedSchema"],
          }),
        },
        requestState: await options.requestState.mint(
          { agent_id: gateway.agentIdOf(context), action_id: actionId, version, purpose: "fill" },
          ctx,
        ),
      });
    }
  }

  let meta: Record<string, unknown> | undefined;
  // Only results that (re)present the confirmation carry a screen. What rides in `_meta` is for
  // showing only: any client (and so the model) may read it, so it never holds anything that
  // could approve — the person decides on the console page, signed in.
  const atConfirmation =
    REACHES_CONFIRMATION.has(name) &&
    outcome.requires_confirmation === true &&
    actionId !== undefined &&
    version !== undefined &&
    outcome.next_actions.some((next) => next.tool === "confirm_action" && next.requires_user_approval);
  const approval = outcome.approval as { status?: string; expires_at?: string } | null | undefined;
  if (atConfirmation && actionId && version !== undefined) {
    if (approval?.status === "pending") {
      meta = {
        ui: { resourceUri: CONFIRM_APP_URI },
        [APPROVAL_META_KEY]: {
          expires_at: approval.expires_at,
          action_id: actionId,
          version,
          console_url: gateway.approvalUrl(actionId),
          // The console's confirmation component, rendered here so the in-host screen shows
          // exactly what /confirm/{id} shows (React escapes every value). Imported lazily: Next
          // refuses a static react-dom/server import in a route handler's module graph.
          summary_html: (await import("react-dom/server")).renderToStaticMarkup(
            createElement(ConfirmationSummary, {
              capability: String(outcome.capability ?? ""),
              title: capabilityTitle(String(outcome.capability ?? "")),
              actionId,
              version,
              summary: outcome.summary,
              status: "pending",
              request: { agentName: agentNameOf(context), expiresAt: approval.expires_at ?? null },
            }),
          ),
        },
      };
    }
    if (typeof outcome.approval_url !== "string") outcome.approval_url = gateway.approvalUrl(actionId);
  }
  // Decided above on the engine's list (the screen, tasks, elicitation); shown as this host acts.
  return toolResult(approvalNextSteps(outcome, { opensUrls, readsResult: "get_context" }), meta, name);
}

/**
 * A confirm refused only because the person has not approved yet, or a start (by words or by
 * capability) that stopped at a confirmation waiting for them: what a host can wait on.
 */
function waitsOnPerson(name: ActionToolName, outcome: GatewayOutcome): boolean {
  if (name === "confirm_action")
    return outcome.outcome === "rejected" && outcome.reason === "approval_pending";
  return name === "start_action" && waitsForApproval(outcome);
}

/** At a confirmation whose approval is pending: only the person can move it on. */
function waitsForApproval(outcome: GatewayOutcome): boolean {
  if (outcome.requires_confirmation !== true || outcome.outcome === "rejected") return false;
  const approval = outcome.approval as { status?: string } | null | undefined;
  return (
    approval?.status === "pending" &&
    outcome.next_actions.some((next) => next.tool === "confirm_action" && next.requires_user_approval)
  );
}

/** The agent's name from its trusted context, when the face's context carries one. */
function agentNameOf(context: unknown): string | null {
  const name = (context as { agentName?: unknown } | null)?.agentName;
  return typeof name === "string" ? name : null;
}

/** Flat primitive fields only: elicitation forms cannot express nested objects or arrays. */
function missingFieldsForm(
  outcome: GatewayOutcome,
): { type: "object"; properties: Record<string, Record<string, unknown>>; required: string[] } | undefined {
  const missing = Array.isArray(outcome.missing)
    ? (outcome.missing as unknown[]).filter((m): m is string => typeof m === "string")
    : [];
  if (missing.length === 0) return undefined;
  if (Array.isArray(outcome.validation_errors) && outcome.validation_errors.length) return undefined;
  const schema = outcome.patch_schema as { properties?: Record<string, Record<string, unknown>> } | undefined;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const field of missing) {
    const prop = schema?.properties?.[field];
    const type = prop?.type;
    if (prop && (type === "string" || type === "number" || type === "integer" || type === "boolean")) {
      properties[field] = {
        type,
        ...(typeof prop.description === "string" ? { description: prop.description } : {}),
        ...(Array.isArray(prop.enum) ? { enum: prop.enum } : {}),
      };
    } else if (!prop && !field.includes("[")) {
      properties[field] = { type: "string", description: field, ...paidEnum(outcome, field) };
    } else {
      return undefined; // something the form cannot express: leave it to the agent
    }
  }
  return { type: "object", properties, required: Object.keys(properties) };
}

/** A paid choice's values (under the key the engine names), so the person picks one of them. */
function paidEnum(outcome: GatewayOutcome, field: string): { enum?: string[] } {
  const paid = (outcome.paid_choices as Record<string, { key?: string; rows?: unknown[] }> | undefined)?.[
    field
  ];
  const key = paid?.key;
  if (!key) return {};
  const values = (paid.rows ?? []).flatMap((r) => {
    const v = r && typeof r === "object" ? (r as Record<string, unknown>)[key] : undefined;
    return typeof v === "string" ? [v] : [];
  });
  return values.length ? { enum: values } : {};
}

/** get_context is where a cut list is read in full (other answers point to it). */
const FULL_LISTS = 50;

export function toolResult(
  answer: GatewayOutcome,
  meta: Record<string, unknown> | undefined,
  name?: ActionToolName,
): CallToolResult {
  // Messages repeat what the agent sent ("No action …"): shown back redacted, as audit rows keep it.
  const outcome =
    typeof answer.message === "string" ? { ...answer, message: redactText(answer.message) } : answer;
  return {
    content: [
      {
        type: "text",
        text: renderOutcomeText(outcome, {
          ...(name === "get_context" ? { listCut: FULL_LISTS } : {}),
          // Operations that change nothing are not headed "applied".
          read: name === "get_context" || name === "search_capabilities",
        }),
      },
    ],
    structuredContent: outcome,
    ...(meta ? { _meta: meta } : {}),
  };
}
