import { liveCapabilities } from "../connectors/connector-registry";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { tenantConnectors } from "../connectors/tenant-connectors";
import type { Db } from "../db/client";
import { type ActionEngine, createActionEngine } from "../engine/action-engine";
import type { ActionResponse } from "../engine/action-response";
import { createdByAgent } from "../engine/created-by-agent";
import { approvalTasks } from "./approval-tasks";
import { callerMayDecide } from "./approvals";
import { adapterForTenant, type CredentialResolver, vaultCredentials } from "./connector-credentials";
import { type PublishedAuditEvent, subscribeAuditEvents } from "./event-stream";
import { type GatewayOutcome, gatewayPipeline } from "./gateway-pipeline";
import { advanceActionOperation } from "./operations/advance-action";
import { agentNewsOperation } from "./operations/agent-news";
import { approvalStatusOperation } from "./operations/approval-status";
import { cancelActionOperation } from "./operations/cancel-action";
import { composeActionSteps } from "./operations/compose-action-steps";
import { confirmActionOperation, confirmWithServerKeyOperation } from "./operations/confirm-action";
import { decideApprovalOperation } from "./operations/decide-approval";
import { decidePermissionOperation } from "./operations/decide-permission";
import { declineApprovalOperation } from "./operations/decline-approval";
import type { GatewayDeps } from "./operations/gateway-deps";
import { getContextOperation } from "./operations/get-context";
import { heldValuesNamedOperation } from "./operations/held-values-named";
import {
  advanceActionInputSchema,
  cancelActionInputSchema,
  confirmActionInputSchema,
  getContextInputSchema,
  recoverActionInputSchema,
  searchCapabilitiesInputSchema,
  startActionInputSchema,
  verifyActionInputSchema,
} from "./operations/operation-schemas";
import { possibleOnRecordOperation } from "./operations/possible-on-record";
import { reconcileEffectOperation } from "./operations/reconcile-effect";
import { recoverActionOperation } from "./operations/recover-action";
import { replaceHeldOperation } from "./operations/replace-held";
import { requestPermissionOperation } from "./operations/request-permission";
import { resolveRecoveryOperation } from "./operations/resolve-recovery";
import { searchCapabilitiesOperation } from "./operations/search-capabilities";
import { startActionOperation } from "./operations/start-action";
import { verifyActionOperation } from "./operations/verify-action";
import { authorize, type PermissionVerb } from "./permissions";
import type { AuditActor, AuditInput } from "./record-audit-event";
import { listRecoveryQueue } from "./recovery-queue";
import { actorOf, type TrustedContext } from "./trusted-context";

export interface GatewayOptions {
  db: Db;
  /** Where API keys come from; default: the vault. Tests may inject. */
  credentials?: CredentialResolver;
  /** The console page where a person approves an action. */
  approvalUrl?: (actionId: string) => string;
  /** The connectors a tenant has (installed, then its own imported ones); default: tenantConnectors. */
  tenantConnectors?: (tenantId: string, version?: number) => Promise<readonly AnyConnector[]>;
}

/**
 * Builds the gateway: the one pipeline (gateway-pipeline.ts: identify → authorize → validate →
 * run → normalize → audit → publish) in front of the engine, for every face, and each operation
 * (operations/<verb>.ts) built on it. This file only composes them. Callers pass a TrustedContext
 * they got from identifyAgent / personContext — never one built from request arguments.
 */
export function createGateway(options: GatewayOptions) {
  const { db } = options;
  const credentials = options.credentials ?? vaultCredentials(db);
  const ownConnectors =
    options.tenantConnectors ??
    ((tenantId: string, version?: number) => tenantConnectors(db, tenantId, version));
  const approvalUrl = options.approvalUrl ?? ((id: string) => `/confirm/${id}`);
  const capabilities = liveCapabilities;
  const engine: ActionEngine = createActionEngine({
    db,
    capabilities,
    adapterFor: async (connector, actor) =>
      adapterForTenant(credentials, actor, connector, await connectorsFor(actor)),
    approvalUrl,
  });

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

  const steps = gatewayPipeline(db);
  const deps: GatewayDeps = { ...steps, db, engine, capabilities, credentials, connectorsFor };

  const searchCapabilities = searchCapabilitiesOperation(deps);
  const getContext = getContextOperation(deps);
  const confirmAction = confirmActionOperation(deps);
  const verifyAction = verifyActionOperation(deps);
  const recoverAction = recoverActionOperation(deps);
  const cancelAction = cancelActionOperation(deps);
  // start_action and advance_action as agents call them compose the single steps.
  const { startAction, advanceAction } = composeActionSteps({
    searchCapabilities,
    startAction: startActionOperation(deps),
    startedWith: (caller, key) => engine.startedWith(actorOf(caller), key),
    advanceAction: advanceActionOperation(deps),
    confirmAction,
    confirmWithServerKey: confirmWithServerKeyOperation(deps),
    possibleOn: possibleOnRecordOperation(deps),
    heldNamed: heldValuesNamedOperation(deps),
    cancelAction,
    replaceHeld: replaceHeldOperation(deps),
    holdForCheck: async (caller, actionId) => {
      if (caller) await engine.holdForCheck(actorOf(caller), actionId);
    },
  });

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
    decideApproval: decideApprovalOperation(deps),
    /** The person declined an approval in their MCP host: withdrawn, the action cancelled. */
    declineApproval: declineApprovalOperation(deps),
    /** What a person decided on the caller's actions since it last heard, as get_context reads it. */
    agentNews: agentNewsOperation(db, getContext),
    approvalStatus: approvalStatusOperation(deps),
    listRecoveryQueue: (ctx: TrustedContext) => listRecoveryQueue(db, ctx),
    resolveRecovery: resolveRecoveryOperation(deps),
    reconcileEffect: reconcileEffectOperation(deps),
    /**
     * Route permission for browse and console checks; does not audit (the caller's operation does).
     * The same function the pipeline enforces with: it canonicalizes the target and applies a
     * capability target's role defaults.
     */
    authorize: (ctx: TrustedContext, verb: PermissionVerb, target: string, options?: { preview?: boolean }) =>
      authorize(db, ctx, verb, target, undefined, options),
    requestPermission: requestPermissionOperation(deps),
    /** Which of these records an action of this caller's agent created (id → when), in its tenant. */
    createdByAgent: (ctx: TrustedContext, entity: string, ids: string[]) =>
      createdByAgent(db, capabilities, ctx, entity, ids),
    decidePermissionRequest: decidePermissionOperation(deps),
    /** Writes one audit row and publishes it (for faces that run their own operations, e.g. browse). */
    recordAudit: (ctx: AuditActor, input: AuditInput) => steps.audit(ctx, input),
    subscribe: (listener: (event: PublishedAuditEvent) => void) => subscribeAuditEvents(listener),
    adapterFor,
    connectorsFor,
    approvalUrl,
    agentIdOf: (ctx: TrustedContext) => ctx.agentId ?? `user:${ctx.userId}`,
    /** Whether the caller's own person may decide this action's pending approval. */
    mayApprove: (ctx: TrustedContext, actionId: string) => callerMayDecide(db, capabilities, ctx, actionId),
    /** Hosts' waits on a person's approval (MCP Tasks), kept in the database for every instance. */
    approvalTasks: approvalTasks(db),
  };
}

export type Gateway = ReturnType<typeof createGateway>;
export type { ActionResponse, GatewayOutcome };
