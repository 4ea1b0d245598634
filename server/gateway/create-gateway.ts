import { trace } from "@opentelemetry/api";
import type { z } from "zod";
import {
  capabilityRegistry,
  findEntity,
  liveCapabilities,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "../connectors/connector-registry";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { NextAction, OutcomeBase } from "../connectors/sdk/outcome";
import { tenantConnectors } from "../connectors/tenant-connectors";
import type { Db } from "../db/client";
import { type ActionEngine, createActionEngine } from "../engine/action-engine";
import type { ActionResponse } from "../engine/action-response";
import { parseActionState } from "../engine/action-state";
import { buildCapabilityIndex, type CapabilityIndex } from "../engine/capability-search";
import { settledStartPatch } from "../engine/start-action";
import { inSpan } from "../telemetry/tracing";
import { approvalTasks } from "./approval-tasks";
import {
  type ApprovalOutcome,
  approvalStatus,
  type DecideApprovalInput,
  decideApproval,
  decideApprovalInputSchema,
} from "./approvals";
import { argumentBoundsErrors, auditCopyOfOversized, outOfBoundsOutcome } from "./argument-bounds";
import { adapterForTenant, type CredentialResolver, vaultCredentials } from "./connector-credentials";
import { type PublishedAuditEvent, subscribeAuditEvents } from "./event-stream";
import { failureOutcome } from "./failure-outcome";
import { composeActionSteps } from "./operations/compose-action-steps";
import {
  advanceActionInputSchema,
  approvalStatusInputSchema,
  cancelActionInputSchema,
  confirmActionInputSchema,
  getContextInputSchema,
  recoverActionInputSchema,
  requestPermissionInputSchema,
  resolveRecoveryInputSchema,
  searchCapabilitiesInputSchema,
  startActionInputSchema,
  verifyActionInputSchema,
} from "./operations/operation-schemas";
import {
  askedRequest,
  authorize,
  authorizeWriteStep,
  capabilityTarget,
  decidePermissionRequest,
  decidePermissionRequestInputSchema,
  describeDecision,
  type PermissionDecision,
  type PermissionVerb,
  permissionAskMessage,
  storePermissionRequest,
} from "./permissions";
import { type AuditActor, type AuditInput, recordAuditEvent } from "./record-audit-event";
import { listRecoveryQueue, resolveRecoveryItem } from "./recovery-queue";
import { actorOf, type Role, type TrustedContext } from "./trusted-context";
import { zodErrors } from "./validation-errors";
import { primeVault } from "./vault";

/** Every gateway answer: the typed outcome with next_actions, plus operation-specific fields. */
export type GatewayOutcome = OutcomeBase & Record<string, unknown>;

export interface GatewayOptions {
  db: Db;
  /** Where API keys come from; default: the vault. Tests may inject. */
  credentials?: CredentialResolver;
  /** The console page where a person approves an action. */
  approvalUrl?: (actionId: string) => string;
  /** The connectors a tenant has (installed, then its own imported ones); default: tenantConnectors. */
  tenantConnectors?: (tenantId: string, version?: number) => Promise<readonly AnyConnector[]>;
}

interface OperationSpec<S extends z.ZodType> {
  /** Audit operation, `domain.verb`. */
  operation: string;
  verb: PermissionVerb;
  schema: S;
  /** What is authorized: a capability target or an entity URI. */
  target: (
    input: z.infer<S>,
    ctx: TrustedContext,
  ) => Promise<{
    target: string;
    capability?: AnyCapability;
    /** A write step's own target (an imported write's form URI): its rules decide first. */
    form?: string;
  }>;
  run: (input: z.infer<S>, ctx: TrustedContext) => Promise<GatewayOutcome>;
}

function invalidArguments(error: z.ZodError): GatewayOutcome {
  const errors = zodErrors(error);
  return {
    outcome: "rejected",
    reason: "invalid_arguments",
    message: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
    retryable: false,
    validation_errors: errors,
    next_actions: [],
  };
}

/**
 * Builds the gateway: the one pipeline (identify → authorize → validate → run → normalize →
 * audit → publish) in front of the engine, for every face. Callers pass a TrustedContext they
 * got from identifyAgent / personContext — never one built from request arguments.
 */
export function createGateway(options: GatewayOptions) {
  const { db } = options;
  const credentials = options.credentials ?? vaultCredentials(db);
  const ownConnectors =
    options.tenantConnectors ??
    ((tenantId: string, version?: number) => tenantConnectors(db, tenantId, version));
  const approvalUrl = options.approvalUrl ?? ((id: string) => `/confirm/${id}`);
  const capabilities = liveCapabilities;
  // Rebuilt when a connector is installed after this gateway was made (cheap: dozens of entries).
  let indexed: { of: ReadonlyMap<string, AnyCapability>; index: CapabilityIndex } | undefined;
  const capabilityIndex = (): CapabilityIndex => {
    const current = capabilityRegistry();
    if (indexed?.of !== current)
      indexed = {
        of: current,
        index: buildCapabilityIndex([...current.values()], {
          idPrefixes: recordIdPrefixes(),
          synonyms: searchSynonyms(),
          topics: searchTopics(),
        }),
      };
    return indexed.index;
  };
  const engine: ActionEngine = createActionEngine({
    db,
    capabilities,
    adapterFor: async (connector, actor) =>
      adapterForTenant(credentials, actor, connector, await connectorsFor(actor)),
    approvalUrl,
  });

  const scopeOf = (ctx: TrustedContext) =>
    ctx.kind === "person" && (ctx.role === "admin" || ctx.role === "support") ? "tenant" : "own";

  async function audit(ctx: AuditActor, input: AuditInput) {
    return recordAuditEvent(db, ctx, input);
  }

  async function actionTarget(ctx: TrustedContext, actionId: string) {
    const row = await db.action.findFirst({
      where: { id: actionId, tenantId: ctx.tenantId },
      select: { capability: true },
    });
    const capability = row ? capabilities.get(row.capability) : undefined;
    return { target: capability ? capabilityTarget(capability.id) : `action:${actionId}`, capability };
  }

  /**
   * An action step that carries out a write (advance, confirm, recover): authorized against
   * what the action does where its capability names that (an imported write's form URI, read
   * from the action's own fixed values), as its start was; otherwise against the capability.
   */
  async function writeStepTarget(ctx: TrustedContext, actionId: string) {
    const found = await actionTarget(ctx, actionId);
    if (!found.capability?.permissionTarget) return found;
    const row = await db.action.findFirst({
      where: { id: actionId, tenantId: ctx.tenantId },
      select: { state: true },
    });
    const values = row ? parseActionState(row.state).values : {};
    const form = found.capability.permissionTarget(values, await connectorsFor(ctx));
    return form === found.target ? found : { ...found, form };
  }

  /** The pipeline every operation passes. Never throws at a caller: failures are outcomes. */
  async function pipeline<S extends z.ZodType>(
    ctx: TrustedContext | null,
    spec: OperationSpec<S>,
    raw: unknown,
  ): Promise<GatewayOutcome> {
    const started = Date.now();
    // What this operation answers is scrubbed of every vault value, used here yet or not.
    await primeVault(db);
    if (!ctx)
      return {
        outcome: "rejected",
        reason: "unauthenticated",
        message: "A valid agent key or session is required",
        retryable: false,
        next_actions: [],
      };
    // Size and depth first: what breaks them never reaches zod, the engine or the audit
    // writer's recursive walks; the row keeps a small copy.
    const parsed = await inSpan("signpost.validate", {}, () =>
      parseAudited(ctx, spec.operation, spec.schema, raw),
    );
    if (!parsed.ok) return parsed.out;
    const input = parsed.input as z.infer<S>;
    const args = input as Record<string, unknown>;
    let decision: PermissionDecision | null = null;
    let target = "";
    let capability: AnyCapability | undefined;
    let out: GatewayOutcome;
    try {
      decision = await inSpan("signpost.authorize", { "signpost.verb": spec.verb }, async (span) => {
        const subject = await spec.target(input, ctx);
        ({ target, capability } = subject);
        span.setAttribute("signpost.target", subject.form ?? target);
        if (subject.form) {
          target = subject.form;
          return authorizeWriteStep(db, ctx, spec.verb, subject.form, capability);
        }
        return authorize(db, ctx, spec.verb, target, capability);
      });
      if (decision.decision === "deny") {
        out = {
          outcome: "rejected",
          reason: "permission_denied",
          message: decision.message,
          retryable: false,
          next_actions: [],
        };
      } else if (decision.decision === "ask") {
        // A dry run (and so a browse form page) only reads: it answers the same, stores nothing.
        const ask = await storePermissionRequest(db, ctx, {
          verb: spec.verb,
          target: decision.target,
          reason: `requested by ${spec.operation}`,
          dryRun: args.dry_run === true,
        });
        const request = askedRequest(ask);
        out = {
          outcome: "rejected",
          reason: "permission_required",
          message: `${decision.message}. ${permissionAskMessage(ask)}`,
          retryable: ask.kind !== "denied",
          permission_request: request
            ? { id: request.id, status: request.status, verb: spec.verb, target: decision.target }
            : null,
          next_actions: [],
        };
      } else {
        out = await inSpan("signpost.run", {}, () => spec.run(input, ctx));
      }
    } catch (err) {
      // normalize: whatever went wrong below becomes a typed outcome (an exception is a bug, not an answer).
      out = failureOutcome(err, `gateway ${spec.operation}`);
    }
    trace.getActiveSpan()?.setAttribute("signpost.outcome", out.outcome);
    const effect = out.effect as { action_key?: string } | null | undefined;
    await audit(ctx, {
      operation: spec.operation,
      target,
      capability: capability?.id ?? (typeof out.capability === "string" ? out.capability : null),
      arguments: args,
      decision: decision ? describeDecision(decision) : null,
      outcome: out.outcome,
      message: out.message,
      latencyMs: Date.now() - started,
      actionId:
        (typeof out.action_id === "string" && out.action_id) ||
        (typeof args.action_id === "string" ? args.action_id : null),
      actionKey: effect?.action_key ?? null,
    });
    return out;
  }

  /** The installed connectors, then this tenant's imported ones; never another tenant's. */
  async function connectorsFor(ctx: {
    tenantId: string;
    tenantVersion?: number;
  }): Promise<readonly AnyConnector[]> {
    return ownConnectors(ctx.tenantId, ctx.tenantVersion);
  }
  /** A connector's adapter for the caller's tenant, with the tenant's credentials from the vault. */
  async function adapterFor(ctx: TrustedContext, connector: string): Promise<unknown> {
    return adapterForTenant(credentials, ctx, connector, await connectorsFor(ctx));
  }

  const visible = (ctx: TrustedContext, c: AnyCapability) => c.policy.roles.includes(ctx.role);

  // ------------------------------------------------------------------ the eight action operations
  const searchCapabilities = (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "capability.searched",
        verb: "search",
        schema: searchCapabilitiesInputSchema,
        target: async () => ({ target: "capabilities" }),
        run: async (input, caller) => {
          const hits = capabilityIndex()
            .search(input.query, 10)
            .filter((h) => {
              const c = capabilities.get(h.capability);
              return c && visible(caller, c);
            });
          const results = hits.slice(0, input.limit ?? 3);
          return {
            outcome: "applied",
            message: !results.length
              ? "No capability matches; rephrase the intent"
              : results.every((r) => r.topic_only)
                ? "No capability does what these words ask; these only concern the same kind of record. To read or list records, search and navigate the pages"
                : `${results.length} capabilities match; the first fits best`,
            retryable: false,
            results,
            next_actions: results.flatMap((r) => r.next_actions),
          };
        },
      },
      raw,
    );

  // One step each; start_action and advance_action as agents call them compose these (below).
  const startOne = (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "action.started",
        verb: "start",
        schema: startActionInputSchema,
        target: async (input, caller) => {
          const capability = capabilities.get(input.capability ?? "");
          // Authorized on the inputs the start runs with (entity_id settled in), never on a
          // patch the engine then changes.
          const own = capability
            ? capability.permissionTarget?.(settledStartPatch(capability, input), await connectorsFor(caller))
            : undefined;
          return { target: own ?? capabilityTarget(input.capability ?? ""), capability };
        },
        run: (input, caller) =>
          engine.start(actorOf(caller), {
            ...input,
            capability: input.capability ?? "",
          }) as Promise<GatewayOutcome>,
      },
      raw,
    );

  const getContext = (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "context.read",
        verb: "navigate",
        schema: getContextInputSchema,
        target: async (input, caller) =>
          input.action_id
            ? actionTarget(caller, input.action_id)
            : {
                target:
                  findEntity(input.entity ?? "", await connectorsFor(caller))?.entity.uri(
                    String(input.entity_id),
                  ) ?? `entity:${input.entity}`,
              },
        run: async (input, caller) => {
          if (input.action_id)
            return engine.getActionContext(
              actorOf(caller),
              input.action_id,
              scopeOf(caller),
            ) as Promise<GatewayOutcome>;
          const id = input.entity_id as string;
          const known = await connectorsFor(caller);
          const found = findEntity(input.entity ?? "", known);
          if (!found)
            return {
              outcome: "rejected",
              reason: "unknown_entity",
              // At most 20 names: fifty connected systems must not make a refusal a page long.
              message: `No entity ${String(input.entity).slice(0, 40)}; entities: ${known
                .flatMap((c) => c.entities.map((e) => e.name))
                .slice(0, 20)
                .join(", ")}`,
              retryable: false,
              next_actions: [],
            };
          const { entity } = found;
          const view =
            entity.roles && !entity.roles.includes(caller.role)
              ? null
              : await entity.view(
                  // The connector list just read, not a second query for it.
                  await adapterForTenant(credentials, caller, found.connector.id, known),
                  actorOf(caller),
                  id,
                );
          if (!view)
            return {
              outcome: "not_found",
              reason: "entity_not_found",
              message: `No ${input.entity} ${id}`,
              retryable: false,
              next_actions: [],
            };
          const allowedNext = view.next_actions.filter((n: NextAction) => {
            const c = capabilities.get(String(n.args?.capability));
            return !c || visible(caller, c);
          });
          return {
            outcome: "applied",
            message: `${view.entity} ${id}: ${view.status}`,
            retryable: false,
            entity: view.entity,
            view: { ...view, next_actions: undefined },
            next_actions: allowedNext,
          };
        },
      },
      raw,
    );

  /** An operation on one existing action: authorized against the action's capability. */
  const onAction =
    <S extends z.ZodType<{ action_id: string }>>(
      operation: string,
      verb: PermissionVerb,
      schema: S,
      run: (input: z.infer<S>, caller: TrustedContext) => Promise<ActionResponse>,
      writes = false,
    ) =>
    (ctx: TrustedContext | null, raw: unknown) =>
      pipeline(
        ctx,
        {
          operation,
          verb,
          schema,
          target: (input, caller) =>
            writes ? writeStepTarget(caller, input.action_id) : actionTarget(caller, input.action_id),
          run: (input, caller) => run(input, caller) as Promise<GatewayOutcome>,
        },
        raw,
      );

  const advanceOne = onAction(
    "action.advanced",
    "advance",
    advanceActionInputSchema,
    (input, caller) => engine.advance(actorOf(caller), input),
    true,
  );
  const confirmAction = onAction(
    "action.confirmed",
    "confirm",
    confirmActionInputSchema,
    (input, caller) => engine.confirm(actorOf(caller), input),
    true,
  );
  const verifyAction = onAction("action.verified", "navigate", verifyActionInputSchema, (input, caller) =>
    engine.verify(actorOf(caller), input.action_id, scopeOf(caller)),
  );
  const recoverAction = onAction(
    "action.recovered",
    "confirm",
    recoverActionInputSchema,
    (input, caller) => engine.recover(actorOf(caller), input.action_id, scopeOf(caller)),
    true,
  );
  const { startAction, advanceAction } = composeActionSteps({
    searchCapabilities,
    startAction: startOne,
    startedWith: (caller, key) => engine.startedWith(actorOf(caller), key),
    advanceAction: advanceOne,
    confirmAction,
  });
  // Ending an action changes it as a patch does: the same permission verb as advance.
  const cancelAction = onAction("action.cancelled", "advance", cancelActionInputSchema, (input, caller) =>
    engine.cancel(actorOf(caller), input.action_id),
  );

  // ------------------------------------------------------------------ people: approvals, permissions, recovery
  /**
   * Arguments checked for every operation (the pipeline's and the people's decisions alike):
   * bounds first, then the strict schema. A refusal is typed and on record (the operation it was
   * meant for, a bounded copy of what was sent), never a bare error no audit row sees.
   */
  async function parseAudited<S extends z.ZodType>(
    ctx: TrustedContext,
    operation: string,
    schema: S,
    raw: unknown,
  ): Promise<{ ok: true; input: z.infer<S> } | { ok: false; out: GatewayOutcome }> {
    const started = Date.now();
    const outOfBounds = argumentBoundsErrors(raw);
    const parsed = outOfBounds.length ? null : schema.safeParse(raw ?? {});
    if (parsed?.success) return { ok: true, input: parsed.data };
    const out = parsed ? invalidArguments(parsed.error) : outOfBoundsOutcome(outOfBounds);
    await audit(ctx, {
      operation,
      arguments: parsed ? raw : auditCopyOfOversized(raw),
      outcome: out.outcome,
      message: out.message,
      latencyMs: Date.now() - started,
    });
    return { ok: false, out };
  }

  /**
   * Runs a person's decision and audits it before the answer. Like the pipeline it never throws
   * at the caller: a failure inside the decision's transaction (nothing of it applied) becomes
   * the one mapped outcome, and the failed attempt is on record like any other.
   */
  async function audited<T extends OutcomeBase>(
    ctx: TrustedContext,
    operation: string,
    args: Record<string, unknown>,
    target: string | null,
    fn: () => Promise<T>,
  ): Promise<T> {
    const started = Date.now();
    let out: T;
    try {
      out = await fn();
    } catch (err) {
      // failureOutcome's fields are OutcomeBase's; T adds only optional ones (approval, status…).
      out = failureOutcome(err, `gateway ${operation}`) as T;
    }
    await audit(ctx, {
      operation,
      target,
      arguments: args,
      outcome: out.outcome,
      message: out.message,
      latencyMs: Date.now() - started,
      actionId:
        (typeof out.action_id === "string" && out.action_id) ||
        (typeof args.action_id === "string" ? args.action_id : null),
    });
    return out;
  }

  /** A person's decision on an approval, audited `approval.approved|rejected` before the answer. */
  const auditedDecision = (
    ctx: TrustedContext,
    input: DecideApprovalInput,
    decide: () => Promise<ApprovalOutcome>,
  ) =>
    audited(
      ctx,
      input.decision === "approve" ? "approval.approved" : "approval.rejected",
      input,
      `action:${input.action_id}`,
      decide,
    );

  /** A person approves or rejects an action's pending approval (console session or CLI). */
  async function decide(ctx: TrustedContext, raw: unknown): Promise<ApprovalOutcome> {
    const parsed = await parseAudited(ctx, "approval.decided", decideApprovalInputSchema, raw);
    if (!parsed.ok) return parsed.out as ApprovalOutcome;
    return auditedDecision(ctx, parsed.input, () => decideApproval(db, ctx, capabilities, parsed.input));
  }

  /**
   * What the confirmation screen inside an MCP host polls: the approval's status and who decided,
   * audited `approval.status_read`. Read-only: it carries nothing that could approve.
   */
  async function readApprovalStatus(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "approval.status_read", approvalStatusInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    const id = parsed.input.action_id;
    return audited(
      ctx,
      "approval.status_read",
      parsed.input,
      `action:${id}`,
      async (): Promise<GatewayOutcome> => {
        const status = await approvalStatus(db, ctx, id);
        if (!status)
          return {
            outcome: "not_found",
            reason: "action_not_found",
            message: `No action ${id}`,
            retryable: false,
            next_actions: [],
          };
        const a = status.approval;
        const message = !a
          ? `No approval requested (the action is ${status.action_status})`
          : a.status === "pending"
            ? `pending until ${a.expires_at.slice(11, 16)} UTC`
            : a.decided_by && a.decided_at
              ? `${a.status} by ${a.decided_by.name} at ${a.decided_at.slice(11, 16)} UTC`
              : a.status;
        return { outcome: "applied", message, retryable: false, ...status, next_actions: [] };
      },
    );
  }

  async function requestPermission(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "permission.requested", requestPermissionInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    return audited(ctx, "permission.requested", parsed.input, parsed.input.target, async () => {
      const ask = await storePermissionRequest(db, ctx, parsed.input);
      const request = askedRequest(ask);
      if (request && ask.kind !== "denied")
        return {
          outcome: "applied",
          message: permissionAskMessage(ask),
          retryable: false,
          permission_request: { id: request.id, status: request.status, target: request.target },
          next_actions: [],
        };
      return {
        outcome: "rejected",
        reason:
          ask.kind === "denied"
            ? "permission_denied"
            : ask.kind === "limited"
              ? "permission_request_limit"
              : ask.kind === "not_stored" && ask.why === "invalid_target"
                ? "invalid_arguments"
                : "agent_required",
        message:
          ask.kind === "not_stored" && ask.why === "not_an_agent"
            ? "Only agents request permissions; people ask an admin"
            : permissionAskMessage(ask),
        retryable: ask.kind === "limited",
        permission_request: request ? { id: request.id, status: request.status } : null,
        next_actions: [],
      };
    });
  }

  async function decidePermission(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "permission.decided", decidePermissionRequestInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    const input = parsed.input;
    return audited(
      ctx,
      input.decision === "grant" ? "permission.granted" : "permission.denied",
      input,
      `permission_request:${input.request_id}`,
      async () => {
        const r = await decidePermissionRequest(db, ctx, input);
        return r.ok
          ? {
              outcome: "applied",
              message: `Request ${r.status}`,
              retryable: false,
              status: r.status,
              rule_id: r.ruleId,
              next_actions: [],
            }
          : {
              outcome: r.reason === "not_found" ? "not_found" : "rejected",
              reason: r.reason,
              message: r.message,
              retryable: false,
              next_actions: [],
            };
      },
    );
  }

  async function resolveRecovery(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "action.recovery_resolved", resolveRecoveryInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    return audited(ctx, "action.recovery_resolved", parsed.input, `action:${parsed.input.action_id}`, () =>
      resolveRecoveryItem(db, ctx, parsed.input),
    );
  }

  /**
   * The reconcile job's look at one action (face `system`, no person or agent behind it): the
   * engine's own verify asks the system of record by action key and records what it says —
   * applied and completed when it shows the effect, the check noted and the action left for
   * recover_action or a person when it does not. It never sends a write. Audited
   * `effect.reconciled` in the action's tenant.
   */
  async function reconcileEffect(actionId: string): Promise<GatewayOutcome> {
    const started = Date.now();
    const row = await db.action.findUnique({
      where: { id: actionId },
      select: { tenantId: true, userId: true, agentId: true, capability: true },
    });
    if (!row)
      return {
        outcome: "not_found",
        reason: "action_not_found",
        message: `No action ${actionId}`,
        retryable: false,
        next_actions: [],
      };
    const user = await db.user.findUnique({ where: { id: row.userId }, select: { email: true, role: true } });
    // The action's own person as the actor (what the capability's lookup may ask about), seen
    // tenant-wide: the job acts for support, not for the agent.
    const actor = {
      tenantId: row.tenantId,
      userId: row.userId,
      email: user?.email ?? "",
      role: (user?.role ?? "member") as Role,
      agentId: row.agentId ?? undefined,
    };
    let out: GatewayOutcome;
    try {
      out = (await engine.verify(actor, actionId, "tenant")) as GatewayOutcome;
    } catch (err) {
      out = failureOutcome(err, "gateway effect.reconciled");
    }
    const effect = out.effect as { action_key?: string } | null | undefined;
    await audit(
      { tenantId: row.tenantId, userId: null, face: "system" },
      {
        operation: "effect.reconciled",
        target: capabilityTarget(row.capability),
        capability: row.capability,
        arguments: { action_id: actionId },
        outcome: out.outcome,
        message: out.message,
        latencyMs: Date.now() - started,
        actionId,
        actionKey: effect?.action_key ?? null,
      },
    );
    return out;
  }

  const operations = {
    search_capabilities: { input: searchCapabilitiesInputSchema, run: searchCapabilities },
    start_action: { input: startActionInputSchema, run: startAction },
    get_context: { input: getContextInputSchema, run: getContext },
    advance_action: { input: advanceActionInputSchema, run: advanceAction },
    confirm_action: { input: confirmActionInputSchema, run: confirmAction },
    verify_action: { input: verifyActionInputSchema, run: verifyAction },
    recover_action: { input: recoverActionInputSchema, run: recoverAction },
    cancel_action: { input: cancelActionInputSchema, run: cancelAction },
  } as const;

  return {
    db,
    capabilities,
    /** The eight action operations as the MCP face registers them: strict input schema + runner. */
    operations,
    searchCapabilities,
    startAction,
    getContext,
    advanceAction,
    confirmAction,
    verifyAction,
    recoverAction,
    decideApproval: decide,
    approvalStatus: readApprovalStatus,
    listRecoveryQueue: (ctx: TrustedContext) => listRecoveryQueue(db, ctx),
    resolveRecovery,
    reconcileEffect,
    /**
     * Route permission for browse and console checks; does not audit (the caller's operation does).
     * The same function the pipeline enforces with: it canonicalizes the target and applies a
     * capability target's role defaults.
     */
    authorize: (ctx: TrustedContext, verb: PermissionVerb, target: string) =>
      authorize(db, ctx, verb, target),
    requestPermission,
    decidePermissionRequest: decidePermission,
    /** Writes one audit row and publishes it (for faces that run their own operations, e.g. browse). */
    recordAudit: (ctx: AuditActor, input: AuditInput) => audit(ctx, input),
    subscribe: (listener: (event: PublishedAuditEvent) => void) => subscribeAuditEvents(listener),
    adapterFor,
    connectorsFor,
    approvalUrl,
    agentIdOf: (ctx: TrustedContext) => ctx.agentId ?? `user:${ctx.userId}`,
    /** Hosts' waits on a person's approval (MCP Tasks), kept in the database for every instance. */
    approvalTasks: approvalTasks(db),
  };
}

export type Gateway = ReturnType<typeof createGateway>;
export type { ActionResponse };
