import { afterAll, beforeAll, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { idem } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc } from "../mcp/mcp-world";
import { peopleOfEveryRole, type Role, type Someone, type Tenant } from "./tenancy-world";

/**
 * Every capability, through a real MCP client: Acme's person of the role that runs it starts an
 * action; Globex's person of the same role can neither start it on Acme's object nor read,
 * advance, confirm, verify or recover Acme's action. Each is `not_found`, and Acme's action
 * does not move. The same role on both sides: a refusal can only come from the tenant.
 */
const capabilities: Array<{
  capability: string;
  role: Role;
  entity_id?: string;
  patch?: Record<string, unknown>;
}> = [
  {
    capability: "checkout",
    role: "member",
    patch: {
      items: [{ product_id: "prod_mug", quantity: 2 }],
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
    },
  },
  { capability: "after_sales", role: "member", entity_id: "ord_paid", patch: { reason: "changed my mind" } },
  {
    capability: "change_delivery_address",
    role: "member",
    entity_id: "ord_paid",
    patch: { address_id: "Home" },
  },
  { capability: "pay_order", role: "member", entity_id: "ord_pending", patch: { payment_type: "balance" } },
  { capability: "cancel_unpaid_order", role: "member", entity_id: "ord_pending" },
  { capability: "track_shipment", role: "member", entity_id: "ord_transit" },
  { capability: "update_cart", role: "member", patch: { product_id: "prod_hoodie", quantity: 1 } },
  { capability: "empty_cart", role: "member" },
  { capability: "assign_ticket", role: "support", entity_id: "tkt_1", patch: { assignee_id: "tm_bella" } },
  {
    capability: "change_ticket_priority",
    role: "support",
    entity_id: "tkt_1",
    patch: { priority: "urgent" },
  },
  {
    capability: "resolve_ticket",
    role: "support",
    entity_id: "tkt_1",
    patch: { resolution: "Refunded it." },
  },
  {
    capability: "reopen_ticket",
    role: "support",
    entity_id: "tkt_5",
    patch: { reason: "Discount missing again" },
  },
  { capability: "close_ticket", role: "support", entity_id: "tkt_5" },
  {
    capability: "comment_ticket",
    role: "support",
    entity_id: "tkt_1",
    patch: { body: "We applied the discount again." },
  },
  { capability: "set_ticket_status", role: "support", entity_id: "tkt_1", patch: { status: "pending" } },
  { capability: "move_ticket_to_team", role: "support", entity_id: "tkt_1", patch: { team_id: "shipping" } },
  { capability: "unassign_ticket", role: "support", entity_id: "tkt_2" },
  // A write of Acme's imported legacy API (granted to support there); Globex has no such system.
  {
    capability: "api_request",
    role: "support",
    patch: { target: "legacy://v1/tickets/tkt_1/update", values: { priority: "urgent" } },
  },
];

describeEachProvider("capabilities across tenants, through MCP (%s)", (provider) => {
  let w: McpWorld;
  let people: Record<Tenant, Record<Role, Someone>>;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
    people = await peopleOfEveryRole(w);
    await importLegacyApi(w, { grants: [{ role: "support", pattern: "legacy://v1/tickets/*/update" }] });
  });
  afterAll(async () => w?.close());

  const call = async (who: Someone, tool: string, args: Record<string, unknown>) => {
    const client = await w.connect(who.key);
    return sc(await client.callTool({ name: tool, arguments: args }));
  };

  it("the table names every capability the gateway serves", () => {
    expect(capabilities.map((c) => c.capability).sort()).toEqual([...w.gw.capabilities.keys()].sort());
  });

  for (const c of capabilities)
    it(`${c.capability}: Globex's ${c.role} cannot start it on Acme's object or touch Acme's action`, async () => {
      await w.legacy.reset();
      const args = {
        capability: c.capability,
        ...(c.entity_id ? { entity_id: c.entity_id } : {}),
        ...(c.patch ? { patch: c.patch } : {}),
      };
      const ours = await call(people.acme[c.role], "start_action", args);
      expect(ours.action_id, JSON.stringify(ours)).toEqual(expect.any(String));
      expect(["rejected", "not_found"], JSON.stringify(ours)).not.toContain(ours.outcome);
      const action_id = ours.action_id as string;
      const before = await w.db.action.findUniqueOrThrow({ where: { id: action_id } });

      const globex = people.globex[c.role];
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["get_context", { action_id }],
        ["advance_action", { action_id, version: before.version, patch: c.patch ?? {} }],
        ["confirm_action", { action_id, version: before.version, idempotency_key: idem("x-tenant") }],
        ["verify_action", { action_id }],
        ["recover_action", { action_id }],
      ];
      if (c.entity_id || c.capability === "api_request") attempts.unshift(["start_action", args]);
      for (const [tool, input] of attempts) {
        const theirs = await call(globex, tool, input);
        expect(theirs, `${tool} ${JSON.stringify(theirs)}`).toMatchObject({ outcome: "not_found" });
      }
      expect(await w.db.action.findUniqueOrThrow({ where: { id: action_id } })).toEqual(before);
      // Acme's own person still reads it: the object was there to be found.
      expect(await call(people.acme[c.role], "get_context", { action_id })).toMatchObject({ action_id });
    });

  it("entity views: another tenant's order and ticket are not_found; the home tenant's are there", async () => {
    for (const [entity, entity_id, role] of [
      ["order", "ord_paid", "member"],
      ["ticket", "tkt_1", "support"],
    ] as const) {
      expect(await call(people.globex[role], "get_context", { entity, entity_id })).toMatchObject({
        outcome: "not_found",
      });
      expect(await call(people.acme[role], "get_context", { entity, entity_id })).toMatchObject({
        outcome: "applied",
      });
    }
  });
});
