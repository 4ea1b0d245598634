import { trace } from "@opentelemetry/api";
import type { z } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { OutcomeBase } from "../connectors/sdk/outcome";
import type { Db } from "../db/client";
import { noteAgentWrote } from "../engine/created-by-agent";
import { inSpan } from "../telemetry/tracing";
import { argumentBoundsErrors, auditCopyOfOversized, outOfBoundsOutcome } from "./argument-bounds";
import { failureOutcome } from "./failure-outcome";
import type { PermissionDecision } from "./permission-decision";
import {
  askedRequest,
  type PermissionAsk,
  permissionAskMessage,
  storePermissionRequest,
} from "./permission-requests";
import {
  authorize,
  authorizeWriteStep,
  describeDecision,
  type PermissionVerb,
  resolvePermissionTarget,
} from "./permissions";
import { type AuditActor, type AuditInput, recordAuditEvent } from "./record-audit-event";
import type { TrustedContext } from "./trusted-context";
import { zodErrors } from "./validation-errors";
import { primeVault } from "./vault";

/** Every gateway answer: the typed outcome with next_actions, plus operation-specific fields. */
export type GatewayOutcome = OutcomeBase & Record<string, unknown>;

export interface OperationSpec<S extends z.ZodType> {
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
  /**
   * False when a person's click runs this as an agent (an approval carrying its action out): an
   * `ask` rule is answered as not yet permitted, and no request is filed in the agent's name for
   * something the agent did not ask just now. The agent's own next call asks, as always.
   */
  filesPermissionRequest?: false;
  /** True when the operation changes no action whatever happens (a verify can, though its verb is a read). */
  readOnly?: true;
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
 * The gateway's one pipeline (identify → authorize → validate → run → normalize → audit →
 * publish) over one database; every operation in operations/ runs through it. `audit` writes a
 * row and publishes it to the live monitor; `parseAudited` and `audited` are the same checks and
 * record for a person's decisions, which have no permission step of their own.
 */
export function gatewayPipeline(db: Db) {
  async function audit(ctx: AuditActor, input: AuditInput) {
    return recordAuditEvent(db, ctx, input);
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
        // A browse page's read of its own target, in the navigate that allowed the page: one
        // call, one decision (trusted-context.ts), so a one-time grant is not asked for twice.
        const page = ctx.pageDecision;
        if (
          page?.decision === "allow" &&
          spec.verb === "navigate" &&
          ctx.auditedPage === target &&
          page.target === resolvePermissionTarget(target).target
        )
          return page;
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
        const ask: PermissionAsk =
          spec.filesPermissionRequest === false
            ? { kind: "not_stored", why: "not_the_agents_call" }
            : await storePermissionRequest(db, ctx, {
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
    // Whatever a step did to the agent's actions is seen by the rest of its own call too (its
    // stamp was read before), e.g. a script's listing right after its verify.
    if (!spec.readOnly) noteAgentWrote(db, ctx.agentId);
    trace.getActiveSpan()?.setAttribute("signpost.outcome", out.outcome);
    // A browse page's read of its own target, allowed and answered: the page's row (target,
    // decision, outcome) records the call; one agent call is one row.
    if (
      ctx.auditedPage !== undefined &&
      ctx.auditedPage === target &&
      decision?.decision === "allow" &&
      out.outcome === "applied"
    )
      return out;
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

  return { audit, pipeline, parseAudited, audited };
}

export type GatewayPipeline = ReturnType<typeof gatewayPipeline>;
