import type { Authorization, BackendOutcome, BrowseBackend } from "../server/connectors/sdk/browse-backend";
import type { Gateway } from "../server/gateway/create-gateway";
import { failureOutcome } from "../server/gateway/failure-outcome";
import type { PermissionDecision } from "../server/gateway/permission-decision";
import { describeDecision } from "../server/gateway/permissions";
import { type Face, type TrustedContext, withFace } from "../server/gateway/trusted-context";
import { listSecrets } from "../server/gateway/vault";
import { redactText } from "../server/redact-secrets";

/** How long one caller's view of its tenant's connectors is reused. */
const CONNECTORS_FRESH_MS = 1_000;

const AUDIT_OPERATION = {
  search: "browse.searched",
  navigate: "browse.navigated",
  submit: "browse.submitted",
} as const;

/**
 * Browse mode over the gateway for one caller: route permissions, audit rows, the engine's
 * views and capabilities, and read-only record lists from the tenant's connectors. The caller's
 * face is relabelled `browse` (or `script`, for a script's browse calls), so every row it causes
 * says where it came from.
 */
export function createSignpostBrowseBackend(
  gw: Gateway,
  agentContext: TrustedContext,
  options: { publicUrl: string; tenantName: string; face?: Extract<Face, "browse" | "script"> },
): BrowseBackend {
  const ctx = withFace(agentContext, options.face ?? "browse");
  const db = gw.db;
  /** The decision (with its rule) each authorized verb and target got, for the row that records it. */
  const decisions = new Map<string, string>();

  async function safely<T>(run: () => Promise<T>): Promise<T | BackendOutcome> {
    try {
      return await run();
    } catch (error) {
      return failureOutcome(error, "browse backend");
    }
  }

  /** The engine reads, as `reader` (the caller, or the caller rendering one page). */
  const reads = (reader: TrustedContext) => ({
    entityView: (entity: string, id: string) =>
      gw.getContext(reader, { entity, entity_id: id }) as Promise<BackendOutcome>,
    action: (actionId: string) => gw.getContext(reader, { action_id: actionId }) as Promise<BackendOutcome>,
    searchCapabilities: (query: string) =>
      gw.searchCapabilities(reader, { query }) as Promise<BackendOutcome>,
    createdByCaller: (entity: string, ids: string[]) => gw.createdByAgent(reader, entity, ids),
  });

  async function decide(...[verb, target, options]: Parameters<BrowseBackend["authorize"]>) {
    const decision = await gw.authorize(ctx, verb, target, options);
    // A preview decides no call: the row of the call itself records its own decision.
    if (!options?.preview) decisions.set(`${verb}\u0000${target}`, describeDecision(decision));
    return decision;
  }
  const authorization = ({ decision, message, source }: PermissionDecision): Authorization =>
    decision === "allow" ? { decision, source: source.kind } : { decision, message, source: source.kind };

  let known: { at: number; list: ReturnType<Gateway["connectorsFor"]> } | undefined;
  const backend: BrowseBackend = {
    authorize: async (verb, target, options) => authorization(await decide(verb, target, options)),
    async record(event) {
      await gw.recordAudit(ctx, {
        operation: AUDIT_OPERATION[event.verb],
        target: event.target,
        capability: event.capability ?? null,
        arguments: event.arguments,
        decision: decisions.get(`${event.verb}\u0000${event.target}`) ?? null,
        outcome: event.outcome,
        message: event.message ?? null,
        latencyMs: event.latencyMs,
        actionId: event.actionId ?? null,
      });
    },

    // The connector decides what its adapter is; browse only passes it back to the connector.
    withAdapter: <A, T>(connector: string, run: (adapter: A) => Promise<T>) =>
      safely(async () => run((await gw.adapterFor(ctx, connector)) as A)),
    connectors: () => {
      // One page asks several times (route match, start links, record sources); each answer
      // is a database round trip, so it is kept a moment. A fresh import shows within a second.
      const now = Date.now();
      if (!known || now - known.at > CONNECTORS_FRESH_MS) known = { at: now, list: gw.connectorsFor(ctx) };
      return known.list;
    },

    ...reads(ctx),
    // Per page, never on this shared object: a search's reads keep their own rows
    // (gateway-pipeline.ts folds only a read of the page's own target). The page's navigate is
    // decided here, and its read of its own target carries that decision (one call, one
    // decision): this page's, not the last one this session made for the same address.
    forPage: (target) => {
      const page: TrustedContext = { ...ctx, auditedPage: target };
      return {
        ...backend,
        async authorize(verb, asked, options) {
          const decision = await decide(verb, asked, options);
          if (verb === "navigate" && asked === target && !options?.preview) page.pageDecision = decision;
          return authorization(decision);
        },
        ...reads(page),
      };
    },
    startAction: (input) => gw.startAction(ctx, input) as Promise<BackendOutcome>,
    advanceAction: (input) => gw.advanceAction(ctx, input) as Promise<BackendOutcome>,
    confirmAction: (input) => gw.confirmAction(ctx, input) as Promise<BackendOutcome>,
    verifyAction: (input) => gw.verifyAction(ctx, input) as Promise<BackendOutcome>,

    async connectorConfig(connector) {
      // The console keeps connector settings admin-only (they hold internal addresses); to any
      // other caller the page does not exist, like another tenant's object.
      if (ctx.role !== "admin") return null;
      const row = await db.connectorConfig.findUnique({
        where: { tenantId_connector: { tenantId: ctx.tenantId, connector } },
      });
      if (!row) return null;
      const stored = (await listSecrets(db, ctx.tenantId)).filter((s) => s.connector === connector);
      // The secrets the connector declares show as "not set" until an admin sets them.
      const declared = (await gw.connectorsFor(ctx)).find((c) => c.id === connector)?.secrets ?? [];
      const names = [...new Set([...declared.map((s) => s.name), ...stored.map((s) => s.name)])];
      return {
        connector,
        enabled: row.enabled,
        settings: (row.settings ?? {}) as Record<string, unknown>,
        secrets: names.map((name) => {
          const found = stored.find((s) => s.name === name);
          return { name, set: !!found, updatedAt: found ? found.updatedAt.toISOString() : null };
        }),
      };
    },
    requestPermission: (input) => gw.requestPermission(ctx, input) as Promise<BackendOutcome>,

    // The audit's redaction, for what pages show (browse cannot import the gateway itself).
    redact: redactText,
    consoleUrl: (path) => `${options.publicUrl}${path}`,
    who: () => ({
      tenantId: ctx.tenantId,
      tenantName: options.tenantName,
      userEmail: ctx.email,
      userName: ctx.name,
      agentName: ctx.agentName,
      role: ctx.role,
    }),
  };
  return backend;
}
