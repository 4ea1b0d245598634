import type { BackendOutcome, BrowseBackend, ListPage, Row } from "@/server/browse/browse-backend";
import type { Gateway } from "@/server/gateway/create-gateway";
import { failureOutcome } from "@/server/gateway/failure-outcome";
import { redactText } from "@/server/gateway/redact-secrets";
import { type Face, type TrustedContext, withFace } from "@/server/gateway/trusted-context";
import { listSecrets } from "@/server/gateway/vault";

/** Secrets each connector is expected to have, so a missing one shows as "not set". */
const EXPECTED_SECRETS: Record<string, string[]> = { shop: ["api_key"], helpdesk: ["api_key"] };

/** Rows per list page: small enough that a page stays a few hundred tokens. */
const PAGE_SIZE = 10;

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
  const isStaff = ctx.role === "admin" || ctx.role === "support";

  async function safely<T>(run: () => Promise<T>): Promise<T | BackendOutcome> {
    try {
      return await run();
    } catch (error) {
      return failureOutcome(error, "browse backend");
    }
  }

  async function customerId(): Promise<string | null> {
    const shop = await gw.shopAdapter(ctx);
    return (await shop.customerByEmail(ctx.email))?.id ?? null;
  }

  return {
    async authorize(verb, target) {
      const decision = await gw.authorize(ctx, verb, target);
      if (decision.decision === "allow") return { decision: "allow" };
      return { decision: decision.decision, message: decision.message };
    },
    async record(event) {
      await gw.recordAudit(ctx, {
        operation: AUDIT_OPERATION[event.verb],
        target: event.target,
        capability: event.capability ?? null,
        arguments: event.arguments,
        outcome: event.outcome,
        message: event.message ?? null,
        latencyMs: event.latencyMs,
        actionId: event.actionId ?? null,
      });
    },

    listOrders: ({ page, perPage, status }) =>
      safely(async () => {
        const shop = await gw.shopAdapter(ctx);
        // Members see their own orders only; support and admins the tenant's.
        const customer = isStaff ? undefined : await customerId();
        if (!isStaff && !customer)
          return { data: [], page, next_page: null, total: 0 } satisfies ListPage<Row>;
        const result = await shop.orders({
          customer_id: customer ?? undefined,
          status,
          page,
          per_page: perPage ?? PAGE_SIZE,
        });
        return {
          data: result.data as unknown as Row[],
          page: result.page,
          next_page: result.next_page,
          total: result.total,
        };
      }),
    listProducts: ({ page, perPage, q }) =>
      safely(async () => {
        const shop = await gw.shopAdapter(ctx);
        const result = await shop.products({ q, page, per_page: perPage ?? PAGE_SIZE });
        return {
          data: result.data as unknown as Row[],
          page: result.page,
          next_page: result.next_page,
          total: result.total,
        };
      }),
    product: (id) =>
      safely(async () => {
        const shop = await gw.shopAdapter(ctx);
        return ((await shop.product(id)) as unknown as Row | null) ?? null;
      }),
    cart: () =>
      safely(async () => {
        const shop = await gw.shopAdapter(ctx);
        const customer = await customerId();
        if (!customer) return null;
        return ((await shop.cart(customer)) as unknown as Row | null) ?? null;
      }),
    listTickets: ({ page, perPage, status, mine, q }) =>
      safely(async () => {
        const helpdesk = await gw.helpdeskAdapter(ctx);
        let assignee: string | undefined;
        if (mine) {
          const teammates = await helpdesk.teammates();
          assignee = teammates.find((t) => t.email.toLowerCase() === ctx.email.toLowerCase())?.id;
        }
        const result = await helpdesk.tickets({
          status,
          q,
          assignee_id: assignee,
          page,
          per_page: perPage ?? PAGE_SIZE,
        });
        let data = result.data as unknown as Row[];
        // Members, and people who are not helpdesk teammates asking for "mine", see the
        // tickets they raised themselves.
        if (!isStaff || (mine && !assignee)) {
          data = data.filter(
            (t) => String(t.requester_email ?? "").toLowerCase() === ctx.email.toLowerCase(),
          );
        }
        return {
          data,
          page,
          next_page: isStaff && !(mine && !assignee) ? result.next_page : null,
          total: isStaff && !(mine && !assignee) ? result.total : data.length,
        };
      }),
    teammates: () =>
      safely(async () => {
        const helpdesk = await gw.helpdeskAdapter(ctx);
        return (await helpdesk.teammates()) as unknown as Row[];
      }),

    entityView: (entity, id) => gw.getContext(ctx, { entity, entity_id: id }) as Promise<BackendOutcome>,
    action: (actionId) => gw.getContext(ctx, { action_id: actionId }) as Promise<BackendOutcome>,
    searchCapabilities: (query) => gw.searchCapabilities(ctx, { query }) as Promise<BackendOutcome>,
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
      const names = [...new Set([...(EXPECTED_SECRETS[connector] ?? []), ...stored.map((s) => s.name)])];
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
}
