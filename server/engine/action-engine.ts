import { randomUUID } from "node:crypto";
import { LegacyUnavailableError } from "../connectors/legacy-client";
import type { Db } from "../db/client";
import {
  type ActionState,
  type ActionStatus,
  effectRequestSchema,
  emptyActionState,
  parseActionState,
} from "./action-state";
import { findApproval, requestApproval, voidApprovals } from "./approval-ledger";
import type {
  Actor,
  AnyCapability,
  EffectContext,
  EffectResult,
  Values,
  Verification,
} from "./define-capability";
import {
  allPatchFields,
  describeInputs,
  type InputDescription,
  nodeIndexOfField,
  patchJsonSchema,
} from "./describe-inputs";
import { type Evaluation, evaluateAction } from "./evaluate-action";
import type { NextAction, OutcomeBase, ValidationError } from "./outcome";
import { summaryDigest } from "./summary-digest";

/** The response of every action operation: a typed outcome plus the action's business state. */
export interface ActionResponse extends OutcomeBase {
  action_id?: string;
  capability?: string;
  entity?: { type: string; id: string | null };
  node?: string;
  status?: string;
  version?: number;
  inputs?: InputDescription[];
  options?: Record<string, unknown>;
  applied?: string[];
  missing?: string[];
  pending?: string[];
  allowed_patch?: string[];
  validation_errors?: ValidationError[];
  requires_confirmation?: boolean;
  summary?: Record<string, unknown> | null;
  approval?: { id: string; status: string; version: number; url: string } | null;
  approval_url?: string;
  effect?: { status: string; action_key: string; external_id: string | null; attempts: number } | null;
  external_id?: string | null;
  verification?: Record<string, unknown> | null;
  result?: Record<string, unknown> | null;
  /** JSON Schema of the patch advance_action accepts now (get_context). */
  patch_schema?: Record<string, unknown>;
}

export interface EngineDeps {
  db: Db;
  capabilities: ReadonlyMap<string, AnyCapability>;
  /** Builds the connector's adapter with credentials from the vault; the engine never sees them. */
  adapterFor: (connector: string, actor: Actor) => Promise<unknown>;
  /** Where a person approves: `/confirm/{action_id}` in the console. */
  approvalUrl?: (actionId: string) => string;
}

export interface StartInput {
  capability: string;
  entity_id?: string;
  patch?: Values;
  dry_run?: boolean;
}
export interface AdvanceInput {
  action_id: string;
  version: number;
  patch: Values;
  dry_run?: boolean;
}
export interface ConfirmInput {
  action_id: string;
  version?: number;
  idempotency_key: string;
  dry_run?: boolean;
}

type ActionRow = NonNullable<Awaited<ReturnType<Db["action"]["findFirst"]>>>;
type EffectRow = NonNullable<Awaited<ReturnType<Db["effect"]["findFirst"]>>>;

const json = (v: unknown) => JSON.parse(JSON.stringify(v ?? {})) as never;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string; meta?: unknown };
  return (
    e?.code === "P2002" ||
    /unique constraint/i.test(e?.message ?? "") ||
    /duplicate key value/i.test(e?.message ?? "")
  );
}

/** Actors acting for themselves see their own actions; support and admins in the console see the tenant's. */
export type ActorScope = "own" | "tenant";

export function createActionEngine(deps: EngineDeps) {
  const { db, capabilities } = deps;
  const approvalUrl = deps.approvalUrl ?? ((id: string) => `/confirm/${id}`);

  function capabilityOf(id: string): AnyCapability | undefined {
    return capabilities.get(id);
  }

  async function loadAction(
    actor: Actor,
    actionId: string,
    scope: ActorScope = "own",
  ): Promise<ActionRow | null> {
    const row = await db.action.findFirst({ where: { id: actionId, tenantId: actor.tenantId } });
    if (!row) return null;
    // Another user's action is as invisible as another tenant's.
    if (scope === "own" && row.userId !== actor.userId) return null;
    return row;
  }

  function lockedFields(capability: AnyCapability, row: ActionRow | null): string[] {
    // The entity an action is about is fixed once the action exists.
    return row?.entityId && capability.appliesTo.field ? [capability.appliesTo.field] : [];
  }

  function allowedPatch(capability: AnyCapability, row: ActionRow | null, status?: string): string[] {
    if (status && !["open", "awaiting_approval", "approved", "rejected"].includes(status)) return [];
    if (capability.policy.effect === "read" && status) return [];
    const locked = lockedFields(capability, row);
    return allPatchFields(capability).filter((f) => !locked.includes(f));
  }

  function approvalRequired(capability: AnyCapability, summary: Record<string, unknown> | null): boolean {
    const rule = capability.policy.approval;
    if (rule === "always") return true;
    if (rule === "never") return false;
    return rule(summary ?? {});
  }

  function nextActionsFor(
    capability: AnyCapability,
    row: { id: string; version: number; status: string },
    state: ActionState,
    effect: EffectRow | null,
    approvalStatus: string | null,
  ): NextAction[] {
    const id = row.id;
    switch (row.status) {
      case "completed":
      case "cancelled":
        return [];
      case "applied":
        return [
          {
            tool: "verify_action",
            args: { action_id: id },
            description: "Check with the system of record that the change really happened",
          },
        ];
      case "executing":
        return [
          {
            tool: "verify_action",
            args: { action_id: id },
            description: "The effect is being sent; check its result",
          },
        ];
      case "unknown":
        return [
          {
            tool: "verify_action",
            args: { action_id: id },
            description: "Check with the system of record first; do not resubmit",
          },
          {
            tool: "recover_action",
            args: { action_id: id },
            description: "If verification shows nothing happened, retry with the original key",
          },
        ];
      case "failed":
        if (effect?.status === "failed")
          return [
            {
              tool: "confirm_action",
              args: { action_id: id, version: row.version },
              description: "Retry later; the same action key is reused, so it cannot apply twice",
            },
            {
              tool: "verify_action",
              args: { action_id: id },
              description: "Check whether anything happened",
            },
          ];
        return [];
    }
    if (state.missing.length || state.validation_errors.length || !state.summary)
      return [
        {
          tool: "advance_action",
          args: { action_id: id, version: row.version },
          description: state.validation_errors.length
            ? `Fix: ${state.validation_errors.map((e) => e.field).join(", ")}`
            : `Fill in: ${state.missing.join(", ") || "the fields in allowed_patch"}`,
        },
      ];
    const needsApproval = state.requires_approval && approvalStatus !== "approved";
    const out: NextAction[] = [];
    if (allPatchFields(capability).length)
      out.push({
        tool: "advance_action",
        args: { action_id: id, version: row.version },
        description: "Change details before confirming (a change needs a new approval)",
      });
    out.push({
      tool: "confirm_action",
      args: { action_id: id, version: row.version },
      description: needsApproval
        ? `After the user approves at ${approvalUrl(id)}, ${capability.effect?.description ?? "execute"} (send a new idempotency_key)`
        : `${capability.effect?.description ?? "Execute"} (send a new idempotency_key)`,
      requires_user_approval: needsApproval,
    });
    return out;
  }

  async function respond(
    capability: AnyCapability,
    row: ActionRow,
    base: Pick<ActionResponse, "outcome" | "message" | "retryable"> & Partial<ActionResponse>,
    extra: { withInputs?: boolean; withSchema?: boolean } = {},
  ): Promise<ActionResponse> {
    const state = parseActionState(row.state);
    const effect = await db.effect.findUnique({ where: { actionId: row.id } });
    const approval = state.requires_approval ? await findApproval(db, row.id, row.version) : null;
    const allowed = allowedPatch(capability, row, row.status);
    const out: ActionResponse = {
      ...base,
      action_id: row.id,
      capability: capability.id,
      entity: { type: capability.appliesTo.entity, id: row.entityId },
      node: row.node,
      status: row.status,
      version: row.version,
      options: state.options,
      applied: base.applied ?? state.applied,
      missing: state.missing,
      pending: state.pending,
      allowed_patch: allowed,
      validation_errors: state.validation_errors,
      requires_confirmation: capability.nodes.some((n) => n.id === row.node && n.requiresConfirmation),
      summary: state.summary,
      approval: approval
        ? { id: approval.id, status: approval.status, version: approval.version, url: approvalUrl(row.id) }
        : null,
      effect: effect
        ? {
            status: effect.status,
            action_key: effect.actionKey,
            external_id: effect.externalId,
            attempts: effect.attempts,
          }
        : null,
      external_id: effect?.externalId ?? null,
      verification: state.verification,
      result: state.result,
      next_actions:
        base.next_actions ?? nextActionsFor(capability, row, state, effect, approval?.status ?? null),
    };
    // Where the person approves, while an approval is outstanding (faces show it as a link).
    if (approval?.status === "pending") out.approval_url = approvalUrl(row.id);
    if (extra.withInputs) out.inputs = describeInputs(capability);
    if (extra.withSchema) out.patch_schema = patchJsonSchema(capability, allowed);
    return out;
  }

  function stateFromEvaluation(
    capability: AnyCapability,
    ev: Evaluation,
    patchFields: string[],
    previous: ActionState,
  ): ActionState {
    const applied = patchFields.filter((f) => {
      const idx = nodeIndexOfField(capability, f);
      if (idx < ev.nodeIndex) return true;
      return idx === ev.nodeIndex && !ev.errors.some((e) => e.field.split(".")[0] === f);
    });
    const pending = patchFields.filter((f) => nodeIndexOfField(capability, f) > ev.nodeIndex);
    const summary =
      ev.atConfirmation && capability.summarize
        ? capability.summarize({ values: ev.values, derived: ev.derived })
        : null;
    return {
      ...previous,
      values: ev.values,
      derived: ev.derived,
      options: ev.options,
      applied,
      missing: ev.missing,
      pending,
      validation_errors: ev.errors,
      summary,
      digest: summary ? summaryDigest(summary) : null,
      requires_approval: summary ? approvalRequired(capability, summary) : false,
    };
  }

  function statusAfterEvaluation(
    capability: AnyCapability,
    ev: Evaluation,
    state: ActionState,
  ): ActionStatus {
    if (ev.atConfirmation) return state.requires_approval ? "awaiting_approval" : "open";
    if (ev.nodeIndex >= capability.nodes.length && capability.policy.effect === "read") return "completed";
    return "open";
  }

  function messageFor(capability: AnyCapability, ev: Evaluation, state: ActionState): string {
    if (ev.errors.length) return `Stopped at ${ev.node}: ${ev.errors.map((e) => e.message).join("; ")}`;
    if (ev.missing.length) return `${capability.title}: ${ev.node} needs ${ev.missing.join(", ")}`;
    if (ev.atConfirmation)
      return state.requires_approval
        ? `${capability.title} is ready; the user must approve it before confirm_action`
        : `${capability.title} is ready to confirm`;
    return `${capability.title} done`;
  }

  function patchProblems(capability: AnyCapability, patch: Values, allowed: string[]): ValidationError[] {
    const known = allPatchFields(capability);
    return Object.keys(patch)
      .filter((f) => !allowed.includes(f))
      .map((f) => ({
        field: f,
        code: known.includes(f) ? "field_locked" : "field_not_allowed",
        message: known.includes(f)
          ? `${f} cannot be changed in this action now; start a new action instead`
          : `${f} is not a field of ${capability.id}; allowed: ${allowed.join(", ") || "none"}`,
      }));
  }

  function unavailable(message: string, extra: Partial<ActionResponse> = {}): ActionResponse {
    return {
      outcome: "temporarily_unavailable",
      reason: "legacy_unavailable",
      message,
      retryable: true,
      next_actions: [],
      ...extra,
    };
  }

  /** Runs a function that talks to the legacy system; a read that stays down becomes an outcome. */
  async function guarded<T>(fn: () => Promise<T>): Promise<T | { unavailable: string }> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof LegacyUnavailableError) return { unavailable: err.message };
      throw err;
    }
  }

  async function runRead(capability: AnyCapability, adapter: unknown, actor: Actor, ev: Evaluation) {
    if (!capability.read) return null;
    return capability.read({ adapter, actor, values: ev.values, derived: ev.derived });
  }

  // ---------------------------------------------------------------- start
  /** Creates an action, applies the optional first patch in node order, stops at the first node lacking input, failing validation, or at the confirmation node. Never executes an effect. */
  async function start(actor: Actor, input: StartInput): Promise<ActionResponse> {
    const capability = capabilityOf(input.capability);
    if (!capability)
      return {
        outcome: "not_found",
        reason: "unknown_capability",
        message: `No capability ${input.capability}`,
        retryable: false,
        next_actions: [
          { tool: "search_capabilities", description: "Find the capability for the user's intent" },
        ],
      };
    const patch: Values = { ...(input.patch ?? {}) };
    const allowed = allowedPatch(capability, null);
    const problems = patchProblems(capability, patch, allowed);
    if (problems.length)
      return {
        outcome: "rejected",
        reason: "field_not_allowed",
        message: problems.map((p) => p.message).join("; "),
        retryable: false,
        capability: capability.id,
        allowed_patch: allowed,
        validation_errors: problems,
        inputs: describeInputs(capability),
        next_actions: [
          {
            tool: "start_action",
            args: { capability: capability.id },
            description: "Start again with fields from allowed_patch",
          },
        ],
      };
    if (input.entity_id && capability.appliesTo.field) patch[capability.appliesTo.field] = input.entity_id;
    const adapter = await deps.adapterFor(capability.connector, actor);
    const ev = await guarded(() => evaluateAction(capability, adapter, actor, patch));
    if ("unavailable" in ev) return unavailable(ev.unavailable, { capability: capability.id });
    if (ev.notFound)
      return {
        outcome: "not_found",
        reason: "entity_not_found",
        message: `${ev.notFound.entity} ${ev.notFound.id} not found`,
        retryable: false,
        capability: capability.id,
        next_actions: [],
      };
    const state = stateFromEvaluation(capability, ev, Object.keys(patch), emptyActionState());
    let status = statusAfterEvaluation(capability, ev, state);
    let readOutcome: Awaited<ReturnType<typeof runRead>> = null;
    if (status === "completed") {
      const r = await guarded(() => runRead(capability, adapter, actor, ev));
      if (r && "unavailable" in r) return unavailable(r.unavailable, { capability: capability.id });
      readOutcome = r;
      if (readOutcome && "result" in readOutcome) state.result = readOutcome.result;
      if (readOutcome && "error" in readOutcome) {
        state.validation_errors = [readOutcome.error];
        status = "rejected";
      }
    }
    const entityId = capability.appliesTo.field
      ? ((ev.values[capability.appliesTo.field] as string | undefined) ?? null)
      : null;
    if (input.dry_run) {
      const fake = {
        id: "",
        tenantId: actor.tenantId,
        userId: actor.userId,
        agentId: actor.agentId ?? null,
        capability: capability.id,
        entityType: capability.appliesTo.entity,
        entityId,
        node: ev.node,
        version: 0,
        status,
        state: state as never,
        createdAt: new Date(),
        updatedAt: new Date(),
      } as ActionRow;
      return {
        outcome: "preview",
        message: `Preview only, nothing was saved: ${messageFor(capability, ev, state)}`,
        retryable: false,
        capability: capability.id,
        entity: { type: capability.appliesTo.entity, id: entityId },
        node: ev.node,
        inputs: describeInputs(capability),
        options: state.options,
        applied: state.applied,
        missing: state.missing,
        pending: state.pending,
        allowed_patch: allowedPatch(capability, fake),
        validation_errors: state.validation_errors,
        requires_confirmation: ev.atConfirmation,
        summary: state.summary,
        result: state.result,
        next_actions: [
          {
            tool: "start_action",
            args: { capability: capability.id },
            description: "Start it for real (without dry_run)",
          },
        ],
      };
    }
    const row = await db.action.create({
      data: {
        tenantId: actor.tenantId,
        agentId: actor.agentId ?? null,
        userId: actor.userId,
        capability: capability.id,
        entityType: capability.appliesTo.entity,
        entityId,
        node: ev.node,
        version: 1,
        status,
        state: json(state),
      },
    });
    await db.actionEvent.create({
      data: {
        actionId: row.id,
        version: 1,
        kind: "started",
        node: ev.node,
        data: json({
          applied: state.applied,
          missing: state.missing,
          validation_errors: state.validation_errors,
        }),
      },
    });
    if (ev.atConfirmation && state.requires_approval && state.summary && state.digest)
      await openApproval(row, state);
    const outcome =
      status === "rejected"
        ? "rejected"
        : ev.errors.length || ev.missing.length
          ? "input_required"
          : "applied";
    return respond(
      capability,
      row,
      {
        outcome,
        reason: status === "rejected" ? state.validation_errors[0]?.code : undefined,
        message:
          status === "rejected"
            ? (state.validation_errors[0]?.message ?? "rejected")
            : messageFor(capability, ev, state),
        retryable: false,
      },
      { withInputs: true },
    );
  }

  async function openApproval(row: ActionRow, state: ActionState) {
    await requestApproval(db, {
      actionId: row.id,
      tenantId: row.tenantId,
      userId: row.userId,
      version: row.version,
      digest: state.digest ?? "",
      summary: state.summary ?? {},
    });
    await db.actionEvent.create({
      data: {
        actionId: row.id,
        version: row.version,
        kind: "approval_requested",
        node: row.node,
        data: json({ digest: state.digest }),
      },
    });
  }

  function notFoundAction(actionId: string): ActionResponse {
    return {
      outcome: "not_found",
      reason: "action_not_found",
      message: `No action ${actionId}`,
      retryable: false,
      next_actions: [
        { tool: "search_capabilities", description: "Find a capability and start a new action" },
      ],
    };
  }

  async function notAllowedNow(
    capability: AnyCapability,
    row: ActionRow,
    tool: string,
  ): Promise<ActionResponse> {
    const r = await respond(capability, row, { outcome: "rejected", message: "", retryable: false });
    r.reason = "not_in_next_actions";
    r.message = `${tool} is not possible while the action is ${row.status} at ${row.node}; next: ${
      r.next_actions.map((n) => n.tool).join(", ") || "nothing (the action is finished)"
    }`;
    return r;
  }

  // ---------------------------------------------------------------- advance
  /** Applies a patch to the current version (stale → conflict), re-runs the nodes, bumps the version and voids approvals of older versions. */
  async function advance(actor: Actor, input: AdvanceInput): Promise<ActionResponse> {
    const row = await loadAction(actor, input.action_id);
    if (!row) return notFoundAction(input.action_id);
    const capability = capabilityOf(row.capability);
    if (!capability) return notFoundAction(input.action_id);
    const allowed = allowedPatch(capability, row, row.status);
    if (!allowed.length) return notAllowedNow(capability, row, "advance_action");
    if (input.version !== row.version) {
      const r = await respond(capability, row, {
        outcome: "conflict",
        reason: "stale_version",
        message: `The action is at version ${row.version}, not ${input.version}; re-read it with get_context and resend`,
        retryable: true,
      });
      r.next_actions = [
        {
          tool: "get_context",
          args: { action_id: row.id },
          description: "Re-read the action's current state",
        },
        {
          tool: "advance_action",
          args: { action_id: row.id, version: row.version },
          description: "Resend the patch against the current version",
        },
      ];
      return r;
    }
    const problems = patchProblems(capability, input.patch, allowed);
    if (problems.length) {
      const r = await respond(capability, row, {
        outcome: "rejected",
        reason: "field_not_allowed",
        message: problems.map((p) => p.message).join("; "),
        retryable: false,
      });
      r.validation_errors = problems;
      return r;
    }
    const previous = parseActionState(row.state);
    const values: Values = { ...previous.values };
    for (const [k, v] of Object.entries(input.patch)) {
      if (v === null) delete values[k];
      else values[k] = v;
    }
    const adapter = await deps.adapterFor(capability.connector, actor);
    const ev = await guarded(() => evaluateAction(capability, adapter, actor, values));
    if ("unavailable" in ev) return unavailable(ev.unavailable, { action_id: row.id, version: row.version });
    if (ev.notFound) return notFoundAction(row.id);
    const state = stateFromEvaluation(capability, ev, Object.keys(input.patch), previous);
    const status = statusAfterEvaluation(capability, ev, state);
    const outcome = ev.errors.length || ev.missing.length ? "input_required" : "applied";
    if (input.dry_run) {
      const r = await respond(
        capability,
        { ...row, node: ev.node, status, state: state as never },
        {
          outcome: "preview",
          message: `Preview only, nothing was saved: ${messageFor(capability, ev, state)}`,
          retryable: false,
        },
      );
      return r;
    }
    // An empty patch that changes nothing must not void an approval.
    if (!Object.keys(input.patch).length && state.digest === previous.digest && ev.node === row.node)
      return respond(capability, row, {
        outcome,
        message: messageFor(capability, ev, state),
        retryable: false,
      });
    const updated = await db.action.updateMany({
      where: { id: row.id, version: row.version },
      data: { version: row.version + 1, node: ev.node, status, state: json(state) },
    });
    if (updated.count === 0) {
      const fresh = (await loadAction(actor, row.id)) ?? row;
      return respond(capability, fresh, {
        outcome: "conflict",
        reason: "stale_version",
        message: `The action changed meanwhile; it is at version ${fresh.version}`,
        retryable: true,
      });
    }
    const next = { ...row, version: row.version + 1, node: ev.node, status, state: state as never };
    await voidApprovals(db, row.id, next.version);
    await db.actionEvent.create({
      data: {
        actionId: row.id,
        version: next.version,
        kind: "advanced",
        node: ev.node,
        data: json({
          patch: Object.keys(input.patch),
          applied: state.applied,
          pending: state.pending,
          validation_errors: state.validation_errors,
        }),
      },
    });
    if (ev.atConfirmation && state.requires_approval) await openApproval(next, state);
    return respond(capability, next, {
      outcome,
      message: messageFor(capability, ev, state),
      retryable: false,
    });
  }

  // ---------------------------------------------------------------- get_context
  /** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
  async function getActionContext(
    actor: Actor,
    actionId: string,
    scope: ActorScope = "own",
  ): Promise<ActionResponse> {
    const row = await loadAction(actor, actionId, scope);
    if (!row) return notFoundAction(actionId);
    const capability = capabilityOf(row.capability);
    if (!capability) return notFoundAction(actionId);
    return respond(
      capability,
      row,
      { outcome: "applied", message: `${capability.title}: ${row.status} at ${row.node}`, retryable: false },
      { withInputs: true, withSchema: true },
    );
  }

  // ---------------------------------------------------------------- effect ledger
  function leaseUntil(capability: AnyCapability): string {
    const { attempts, backoffMs } = capability.policy.retry;
    const budget = capability.policy.timeoutMs * Math.max(1, attempts) + backoffMs * 2 ** attempts + 5000;
    return new Date(Date.now() + budget).toISOString();
  }

  function effectContext(
    capability: AnyCapability,
    adapter: unknown,
    actor: Actor,
    state: ActionState,
    key: string,
  ): EffectContext<unknown> {
    return {
      adapter,
      actor,
      values: state.values,
      derived: state.derived,
      actionKey: key,
      timeoutMs: capability.policy.timeoutMs,
      attempts: capability.policy.retry.attempts,
    };
  }

  /** The action key: one per action version, sent as Idempotency-Key and reference. */
  function actionKeyFor(row: ActionRow): string {
    return `sp_${row.id}_v${row.version}`;
  }

  /**
   * Records what the legacy system answered, BEFORE anyone gets a response. Business refusals
   * and no-op answers definitely did not apply; timeouts and dropped connections may have.
   */
  async function recordEffectResult(
    capability: AnyCapability,
    row: ActionRow,
    effect: EffectRow,
    result: EffectResult,
    via: "confirmed" | "recovered",
  ): Promise<ActionResponse> {
    const state = parseActionState(row.state);
    let status: ActionStatus;
    let response: Pick<ActionResponse, "outcome" | "message" | "retryable" | "reason">;
    switch (result.status) {
      case "applied":
        await db.effect.update({
          where: { id: effect.id },
          data: {
            status: "applied",
            externalId: result.externalId ?? null,
            response: json(result.response),
            error: null,
          },
        });
        status = "applied";
        state.last_error = null;
        state.recovery = null;
        response = {
          outcome: "applied",
          message: `${capability.effect?.description ?? "Effect"}: done (${result.externalId ?? "no external id"}); verify it`,
          retryable: false,
        };
        break;
      case "rejected":
        // Definitely not applied: free the ledger so a changed action can try again with a new key.
        await db.effect.delete({ where: { id: effect.id } });
        status = state.requires_approval ? "approved" : "open";
        state.last_error = { code: result.code, message: result.message };
        response = { outcome: "rejected", reason: result.code, message: result.message, retryable: false };
        break;
      case "not_applied":
        await db.effect.update({
          where: { id: effect.id },
          data: { status: "failed", error: `not_applied: ${result.message}` },
        });
        status = "failed";
        state.last_error = { code: "not_applied", message: result.message };
        response = {
          outcome: "rejected",
          reason: "not_applied",
          message: `The legacy system answered but changed nothing: ${result.message}`,
          retryable: true,
        };
        break;
      case "unavailable":
        await db.effect.update({
          where: { id: effect.id },
          data: { status: "failed", error: `temporarily_unavailable: ${result.message}` },
        });
        status = "failed";
        state.last_error = { code: "temporarily_unavailable", message: result.message };
        response = {
          outcome: "temporarily_unavailable",
          reason: "legacy_unavailable",
          message: `${result.message}; nothing was applied`,
          retryable: true,
        };
        break;
      case "unknown":
        await db.effect.update({
          where: { id: effect.id },
          data: { status: "unknown", error: result.message },
        });
        status = "unknown";
        state.last_error = { code: "unknown", message: result.message };
        if (via === "recovered")
          state.recovery = { queued_at: new Date().toISOString(), reason: result.message };
        response = {
          outcome: "unknown",
          reason: via === "recovered" ? "queued_for_recovery" : "outcome_unknown",
          message: `${result.message}: it may or may not have happened; verify before anything else`,
          retryable: false,
        };
        break;
    }
    // An effect that created the entity (checkout → order) names it from now on.
    const entityId = row.entityId ?? (result.status === "applied" ? (result.entityId ?? null) : null);
    const next = {
      ...row,
      status,
      entityId,
      node: status === "applied" ? "SUBMITTED" : row.node,
      state: state as never,
    };
    await db.action.update({
      where: { id: row.id },
      data: { status, entityId, node: next.node, state: json(state) },
    });
    await db.actionEvent.create({
      data: {
        actionId: row.id,
        version: row.version,
        kind: via,
        node: next.node,
        data: json({ effect: result.status, key: effect.actionKey }),
      },
    });
    return respond(capability, next, response);
  }

  async function execute(
    capability: AnyCapability,
    actor: Actor,
    row: ActionRow,
    effect: EffectRow,
    via: "confirmed" | "recovered",
  ) {
    const state = parseActionState(row.state);
    const adapter = await deps.adapterFor(capability.connector, actor);
    let result: EffectResult;
    try {
      result = (await capability.effect?.execute(
        effectContext(capability, adapter, actor, state, effect.actionKey),
      )) ?? {
        status: "rejected",
        code: "no_effect",
        message: "capability has no effect",
      };
    } catch (err) {
      // A read inside the effect that stayed down happened before the write: nothing was sent.
      if (err instanceof LegacyUnavailableError) result = { status: "unavailable", message: err.message };
      else
        result = {
          status: "unknown",
          message: `unexpected error after the effect was claimed: ${(err as Error).message}`,
        };
    }
    return recordEffectResult(capability, row, effect, result, via);
  }

  /** Answers a confirm that found the effect already claimed: the first outcome, never a second effect. */
  async function existingEffectOutcome(
    capability: AnyCapability,
    actor: Actor,
    actionId: string,
    idempotencyKey: string,
    waitMs: number,
  ): Promise<ActionResponse> {
    const deadline = Date.now() + waitMs;
    let effect = await db.effect.findUnique({ where: { actionId } });
    while (effect?.status === "pending" && Date.now() < deadline) {
      await sleep(50);
      effect = await db.effect.findUnique({ where: { actionId } });
    }
    const row = await loadAction(actor, actionId);
    if (!row) return notFoundAction(actionId);
    if (!effect)
      return respond(capability, row, {
        outcome: parseActionState(row.state).last_error ? "rejected" : "conflict",
        reason: parseActionState(row.state).last_error?.code ?? "changed",
        message: parseActionState(row.state).last_error?.message ?? "The action changed; re-read it",
        retryable: false,
      });
    const firstKey = effectRequestSchema.safeParse(effect.request).data?.idempotency_key;
    const sameKey = firstKey === idempotencyKey;
    const prefix = sameKey
      ? "Replay of the first confirm"
      : "Already confirmed with another idempotency key; no second effect";
    const map: Record<string, Pick<ActionResponse, "outcome" | "retryable">> = {
      applied: { outcome: "applied", retryable: false },
      pending: { outcome: "unknown", retryable: false },
      unknown: { outcome: "unknown", retryable: false },
      failed: { outcome: "temporarily_unavailable", retryable: true },
    };
    const m = map[effect.status] ?? { outcome: "unknown", retryable: false };
    return respond(capability, row, {
      ...m,
      reason: sameKey ? "idempotent_replay" : "already_confirmed",
      message: `${prefix}: effect ${effect.status}${effect.externalId ? ` (${effect.externalId})` : ""}`,
    });
  }

  // ---------------------------------------------------------------- confirm
  /** Executes the effect once: needs the person's approval of this version and digest; claims the ledger row first; replays the first outcome to every later confirm. */
  async function confirm(actor: Actor, input: ConfirmInput): Promise<ActionResponse> {
    const row = await loadAction(actor, input.action_id);
    if (!row) return notFoundAction(input.action_id);
    const capability = capabilityOf(row.capability);
    if (!capability?.effect)
      return row && capability
        ? notAllowedNow(capability, row, "confirm_action")
        : notFoundAction(input.action_id);
    const waitMs = capability.policy.timeoutMs * Math.max(1, capability.policy.retry.attempts) + 2000;
    const existing = await db.effect.findUnique({ where: { actionId: row.id } });
    if (existing && existing.status !== "failed")
      return existingEffectOutcome(capability, actor, row.id, input.idempotency_key, waitMs);
    const state = parseActionState(row.state);
    const atConfirmation = capability.nodes.some((n) => n.id === row.node && n.requiresConfirmation);
    if (
      !existing &&
      (!atConfirmation || !state.summary || !["open", "awaiting_approval", "approved"].includes(row.status))
    )
      return notAllowedNow(capability, row, "confirm_action");
    if (input.version !== undefined && input.version !== row.version)
      return respond(capability, row, {
        outcome: "conflict",
        reason: "stale_version",
        message: `The action is at version ${row.version}, not ${input.version}; the approval is bound to the current version`,
        retryable: true,
      });
    if (state.requires_approval) {
      const approval = await findApproval(db, row.id, row.version);
      if (approval?.status !== "approved" || approval.summaryDigest !== state.digest) {
        const r = await respond(capability, row, {
          outcome: "rejected",
          reason: approval?.status === "rejected" ? "approval_rejected" : "approval_pending",
          message:
            approval?.status === "rejected"
              ? `The user rejected this${approval.reason ? `: ${approval.reason}` : ""}; change the action or stop`
              : `A person must approve version ${row.version} first at ${approvalUrl(row.id)}; the model's word is not an approval`,
          retryable: approval?.status !== "rejected",
        });
        r.next_actions =
          approval?.status === "rejected"
            ? [
                {
                  tool: "advance_action",
                  args: { action_id: row.id, version: row.version },
                  description: "Change what the user objected to (creates a new approval)",
                },
              ]
            : [
                {
                  tool: "get_context",
                  args: { action_id: row.id },
                  description: "Check whether the user has approved yet",
                },
                {
                  tool: "confirm_action",
                  args: { action_id: row.id, version: row.version },
                  description: "Confirm once the user has approved",
                  requires_user_approval: true,
                },
              ];
        return r;
      }
    }
    if (input.dry_run)
      return respond(capability, row, {
        outcome: "preview",
        message: `Preview only: confirming would ${capability.effect.description.toLowerCase()} as summarized; nothing was sent`,
        retryable: false,
      });

    // Claim the effect: the unique (actionId) and (actionKey) constraints let exactly one confirm through.
    let effect: EffectRow;
    const request = {
      idempotency_key: input.idempotency_key,
      version: row.version,
      digest: state.digest,
      lease_until: leaseUntil(capability),
    };
    if (existing) {
      // A retry after "temporarily unavailable": same key; the conditional update admits one retrier.
      const claimed = await db.effect.updateMany({
        where: { id: existing.id, status: "failed" },
        data: {
          status: "pending",
          attempts: { increment: 1 },
          request: json({
            ...request,
            idempotency_key:
              effectRequestSchema.safeParse(existing.request).data?.idempotency_key ?? input.idempotency_key,
          }),
        },
      });
      if (claimed.count === 0)
        return existingEffectOutcome(capability, actor, row.id, input.idempotency_key, waitMs);
      effect = await db.effect.findUniqueOrThrow({ where: { id: existing.id } });
    } else {
      try {
        effect = await db.effect.create({
          data: {
            actionId: row.id,
            actionKey: actionKeyFor(row),
            tenantId: row.tenantId,
            kind: capability.effect.kind,
            status: "pending",
            request: json(request),
            attempts: 1,
          },
        });
      } catch (err) {
        if (isUniqueViolation(err))
          return existingEffectOutcome(capability, actor, row.id, input.idempotency_key, waitMs);
        throw err;
      }
    }
    // Re-validate at execution time: prices, stock and states may have moved since approval.
    const adapter = await deps.adapterFor(capability.connector, actor);
    const ev = await guarded(() => evaluateAction(capability, adapter, actor, state.values));
    if (
      "unavailable" in ev ||
      ev.notFound ||
      !ev.atConfirmation ||
      summaryDigest(capability.summarize?.({ values: ev.values, derived: ev.derived }) ?? {}) !== state.digest
    ) {
      if (!existing) await db.effect.delete({ where: { id: effect.id } });
      else await db.effect.update({ where: { id: effect.id }, data: { status: "failed" } });
      if ("unavailable" in ev)
        return unavailable(ev.unavailable, { action_id: row.id, version: row.version });
      // Something changed under the approval: record the new state as a new version that needs a new approval.
      const fresh = ev.notFound ? state : stateFromEvaluation(capability, ev, [], state);
      const status = ev.notFound ? "cancelled" : statusAfterEvaluation(capability, ev, fresh);
      const next = {
        ...row,
        version: row.version + 1,
        node: ev.notFound ? row.node : ev.node,
        status,
        state: fresh as never,
      };
      const upd = await db.action.updateMany({
        where: { id: row.id, version: row.version },
        data: { version: next.version, node: next.node, status, state: json(fresh) },
      });
      if (upd.count) {
        await voidApprovals(db, row.id, next.version);
        await db.actionEvent.create({
          data: {
            actionId: row.id,
            version: next.version,
            kind: "changed_before_confirm",
            node: next.node,
            data: json({ validation_errors: fresh.validation_errors }),
          },
        });
        if (!ev.notFound && ev.atConfirmation && fresh.requires_approval) await openApproval(next, fresh);
      }
      return respond(capability, next, {
        outcome: "conflict",
        reason: "changed_since_approval",
        message:
          "What was approved no longer matches the system of record; review the new summary (a new approval is needed)",
        retryable: true,
      });
    }
    await db.action.update({ where: { id: row.id }, data: { status: "executing" } });
    return execute(capability, actor, { ...row, status: "executing" }, effect, "confirmed");
  }

  // ---------------------------------------------------------------- verify
  async function lookup(
    capability: AnyCapability,
    actor: Actor,
    row: ActionRow,
    effect: EffectRow,
  ): Promise<Verification> {
    const adapter = await deps.adapterFor(capability.connector, actor);
    try {
      return (
        (await capability.effect?.verify(
          effectContext(capability, adapter, actor, parseActionState(row.state), effect.actionKey),
        )) ?? {
          happened: false,
          details: {},
        }
      );
    } catch (err) {
      if (err instanceof LegacyUnavailableError) return { happened: "unavailable", message: err.message };
      throw err;
    }
  }

  async function recordVerification(
    _capability: AnyCapability,
    row: ActionRow,
    effect: EffectRow,
    v: Verification & { happened: true },
    via: string,
  ) {
    const state = parseActionState(row.state);
    state.verification = { ...v.details, checked_at: new Date().toISOString() };
    state.recovery = null;
    if (effect.status !== "applied")
      await db.effect.update({
        where: { id: effect.id },
        data: { status: "applied", externalId: v.externalId ?? effect.externalId, error: null },
      });
    const entityId = row.entityId ?? v.entityId ?? null;
    await db.action.update({
      where: { id: row.id },
      data: { status: "completed", node: "VERIFIED", entityId, state: json(state) },
    });
    await db.actionEvent.create({
      data: {
        actionId: row.id,
        version: row.version,
        kind: via,
        node: "VERIFIED",
        data: json(state.verification),
      },
    });
    return { ...row, status: "completed", node: "VERIFIED", entityId, state: state as never };
  }

  /** Asks the system of record what really happened and records it (an `unknown` effect found there becomes applied). */
  async function verify(actor: Actor, actionId: string, scope: ActorScope = "own"): Promise<ActionResponse> {
    const row = await loadAction(actor, actionId, scope);
    if (!row) return notFoundAction(actionId);
    const capability = capabilityOf(row.capability);
    if (!capability) return notFoundAction(actionId);
    const effect = await db.effect.findUnique({ where: { actionId: row.id } });
    if (!effect) {
      if (row.status === "completed")
        return respond(capability, row, {
          outcome: "applied",
          message: "Nothing to verify: this action had no side effect",
          retryable: false,
          next_actions: [],
        });
      return notAllowedNow(capability, row, "verify_action");
    }
    const v = await lookup(capability, actor, row, effect);
    if (v.happened === "unavailable")
      return unavailable(`${v.message}; could not verify`, {
        action_id: row.id,
        version: row.version,
        next_actions: [
          { tool: "verify_action", args: { action_id: row.id }, description: "Verify again later" },
        ],
      });
    if (v.happened) {
      const next = await recordVerification(capability, row, effect, v, "verified");
      return respond(capability, next, {
        outcome: "applied",
        message: `Verified: ${capability.effect?.description ?? "effect"} happened`,
        retryable: false,
        next_actions: [],
      });
    }
    const state = parseActionState(row.state);
    state.verification = { ...v.details, found: false, checked_at: new Date().toISOString() };
    await db.action.update({ where: { id: row.id }, data: { state: json(state) } });
    const next = { ...row, state: state as never };
    if (effect.status === "applied")
      return respond(capability, next, {
        outcome: "unknown",
        reason: "verification_mismatch",
        message:
          "The ledger says applied but the system of record shows nothing; a person should look (recovery queue)",
        retryable: false,
      });
    return respond(capability, next, {
      outcome: effect.status === "failed" ? "rejected" : "unknown",
      reason: "not_found_at_system_of_record",
      message: "The system of record shows no such effect; recover_action retries it with the original key",
      retryable: true,
      next_actions: [
        {
          tool: "recover_action",
          args: { action_id: row.id },
          description: "Retry with the original idempotency key (cannot apply twice)",
        },
      ],
    });
  }

  // ---------------------------------------------------------------- recover
  /** Reconciles `unknown`, failed or abandoned `pending` effects: verify first, then record, or re-send with the original key, or queue for a person. */
  async function recover(actor: Actor, actionId: string, scope: ActorScope = "own"): Promise<ActionResponse> {
    const row = await loadAction(actor, actionId, scope);
    if (!row) return notFoundAction(actionId);
    const capability = capabilityOf(row.capability);
    if (!capability) return notFoundAction(actionId);
    const effect = await db.effect.findUnique({ where: { actionId: row.id } });
    if (!effect) return notAllowedNow(capability, row, "recover_action");
    if (effect.status === "applied" && row.status === "completed")
      return respond(capability, row, {
        outcome: "applied",
        message: "Nothing to recover: the effect is applied and verified",
        retryable: false,
      });
    if (effect.status === "pending") {
      const lease = effectRequestSchema.safeParse(effect.request).data?.lease_until;
      if (lease && Date.parse(lease) > Date.now())
        return respond(capability, row, {
          outcome: "unknown",
          reason: "effect_in_progress",
          message: `The effect is still being sent (until ${lease}); verify after that`,
          retryable: true,
        });
    }
    // Verify first: never send again what may already have happened.
    const v = await lookup(capability, actor, row, effect);
    if (v.happened === "unavailable")
      return unavailable(`${v.message}; could not verify, nothing was retried`, {
        action_id: row.id,
        version: row.version,
      });
    if (v.happened) {
      const next = await recordVerification(capability, row, effect, v, "recovered");
      return respond(capability, next, {
        outcome: "applied",
        message: "Recovered: the effect had happened; it is now recorded",
        retryable: false,
        next_actions: [],
      });
    }
    if (effect.status === "applied")
      return respond(capability, row, {
        outcome: "unknown",
        reason: "verification_mismatch",
        message: "The ledger says applied but the system of record shows nothing; left for a person",
        retryable: false,
      });
    // Nothing happened: retry with the ORIGINAL key; the conditional update admits one recoverer.
    const request = effectRequestSchema.safeParse(effect.request).data;
    const claimed = await db.effect.updateMany({
      where: { id: effect.id, status: effect.status, attempts: effect.attempts },
      data: {
        status: "pending",
        attempts: { increment: 1 },
        request: json({ ...request, lease_until: leaseUntil(capability) }),
      },
    });
    if (claimed.count === 0)
      return existingEffectOutcome(
        capability,
        actor,
        row.id,
        request?.idempotency_key ?? "",
        capability.policy.timeoutMs * 2,
      );
    const claimedEffect = await db.effect.findUniqueOrThrow({ where: { id: effect.id } });
    return execute(capability, actor, row, claimedEffect, "recovered");
  }

  return {
    capabilities,
    start,
    advance,
    getActionContext,
    confirm,
    verify,
    recover,
    loadAction,
    /** Internal step, exported for crash tests and the recovery tools: claim without sending. */
    async claimEffectForTest(actor: Actor, actionId: string, idempotencyKey: string) {
      const row = await loadAction(actor, actionId);
      if (!row) throw new Error("no action");
      const capability = capabilityOf(row.capability);
      if (!capability?.effect) throw new Error("no effect");
      const state = parseActionState(row.state);
      const effect = await db.effect.create({
        data: {
          actionId: row.id,
          actionKey: actionKeyFor(row),
          tenantId: row.tenantId,
          kind: capability.effect.kind,
          status: "pending",
          request: json({
            idempotency_key: idempotencyKey,
            version: row.version,
            digest: state.digest,
            lease_until: leaseUntil(capability),
          }),
          attempts: 1,
        },
      });
      await db.action.update({ where: { id: row.id }, data: { status: "executing" } });
      const adapter = await deps.adapterFor(capability.connector, actor);
      return {
        effect,
        /** Sends the effect without recording the answer: what a crash right after sending leaves behind. */
        send: () =>
          capability.effect?.execute(effectContext(capability, adapter, actor, state, effect.actionKey)),
      };
    },
  };
}

export type ActionEngine = ReturnType<typeof createActionEngine>;

/** A random id for things that need one but are not database rows. */
export const newId = () => randomUUID();
