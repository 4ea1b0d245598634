// stays-whole: the action face's tests over one started MCP world (a start costs more than the file).
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve, idem } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** Counts the calls an agent makes (the person's approval in the console is not one). */
function counted(client: Client) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
      calls++;
      return client.callTool({ name, arguments: args });
    },
  };
}

async function balance(w: McpWorld): Promise<number> {
  const res = await fetch(`${w.legacy.url}/v1/customers/cus_alice`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  return ((await res.json()) as { balance: number }).balance;
}

function approvalMeta(result: ToolResult) {
  return (
    result._meta as
      | Record<string, { version: number; action_id: string; console_url: string; summary_html: string }>
      | undefined
  )?.["signpost/approval"];
}

describeEachProvider(
  "MCP action face over HTTP (%s; SDK v2 client, real gateway, real legacy service)",
  (provider) => {
    let w: McpWorld;
    beforeAll(async () => {
      w = await createMcpWorld(provider);
    });
    afterAll(async () => w?.close());
    beforeEach(async () => w.legacy.reset());

    it("checkout: search → start with the full patch → (Alice approves in the console) → confirm (verified at once): 3 agent calls, one payment", async () => {
      const client = await w.connect(w.keys.alice);
      const agent = counted(client);
      const before = await balance(w);

      const found = sc(
        await agent.call("search_capabilities", {
          query: "two of these mugs, ship to the office, pay from my balance",
        }),
      );
      expect((found.results as Array<{ capability: string }>)[0]?.capability).toBe("checkout");

      const started = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      const s = sc(started);
      expect(s).toMatchObject({
        outcome: "applied",
        node: "CONFIRM_ORDER",
        requires_confirmation: true,
        version: 1,
      });
      // Nothing executed yet: the text says what it waits for, not "applied".
      expect(text(started)).toMatch(/^awaiting_approval: /);
      // The text alone says what comes next (arguments by name: their values are the facts
      // line's, said once): the user approves at the link, which carries it out. This host opens
      // no URL, so confirm_action is no step of the agent's (approval-next-steps.ts).
      expect(text(started)).toContain(`action \`${s.action_id}\` · version 1`);
      expect(text(started)).toMatch(
        /their approval at the link carries it out and shows them the result: nothing to call now/,
      );
      expect(text(started)).not.toMatch(/confirm_action/);
      // The confirmation node links the MCP App; its _meta holds what the screen shows and the
      // console page where Alice decides — nothing that could approve.
      expect(started._meta).toMatchObject({ ui: { resourceUri: "ui://signpost/confirm" } });
      const approval = approvalMeta(started);
      expect(Object.keys(approval ?? {}).sort()).toEqual([
        "action_id",
        "console_url",
        "expires_at",
        "summary_html",
        "version",
      ]);
      expect(approval?.console_url).toBe(`http://localhost:3000/confirm/${s.action_id}`);
      // The screen shows the console's own confirmation component, bound to this version.
      expect(approval?.summary_html).toContain('data-testid="confirmation-summary"');
      expect(approval?.summary_html).toContain(`data-version="${s.version}"`);
      expect(approval?.summary_html).toContain("Signpost Mug");
      expect(s.approval_url ?? (s.approval as { url?: string })?.url).toMatch(/\/confirm\//);

      // Alice approves on the console page, signed in as herself.
      expect(await approve(w, String(s.action_id))).toMatchObject({ outcome: "applied" });

      const confirmed = sc(
        await agent.call("confirm_action", {
          action_id: s.action_id,
          version: s.version,
          idempotency_key: idem(),
        }),
      );
      // Confirm checks the system of record at once: verified, nothing left to call.
      expect(confirmed).toMatchObject({
        outcome: "applied",
        status: "completed",
        verification: expect.objectContaining({ amount: 4100 }),
        next_actions: [],
      });
      expect(agent.calls).toBe(3);

      // Exactly one charge: the balance moved by the order total once.
      expect(await balance(w)).toBe(before - 4100);
      const audit = await w.db.auditEvent.findMany({
        where: { actionId: String(s.action_id) },
        orderBy: { seq: "asc" },
      });
      expect(audit.map((a) => a.operation)).toEqual(
        expect.arrayContaining(["action.started", "approval.approved", "action.confirmed"]),
      );
      const approved = audit.find((a) => a.operation === "approval.approved");
      expect(approved).toMatchObject({ face: "console", userId: w.person.alice.userId, agentId: null });
    });

    it("the approval screen's status tool reads who decided and carries nothing that approves; decide_approval does not exist", async () => {
      const client = await w.connect(w.keys.alice);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("approval_status");
      expect(names).not.toContain("decide_approval");
      const started = await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 1 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      });
      const s = sc(started);
      const pending = sc(
        await client.callTool({ name: "approval_status", arguments: { action_id: s.action_id } }),
      );
      expect(pending).toMatchObject({
        outcome: "applied",
        approval: { status: "pending", decided_by: null },
      });
      // The old app tool is gone: calling it is an error, and the action stays unapproved.
      await expect(
        client.callTool({
          name: "decide_approval",
          arguments: {
            action_id: s.action_id,
            version: s.version,
            decision: "approve",
            approval_token: "x".repeat(43),
          },
        }),
      ).rejects.toThrow(/Tool decide_approval not found/);
      expect(await w.db.approval.findFirst({ where: { actionId: String(s.action_id) } })).toMatchObject({
        status: "pending",
      });
      await approve(w, String(s.action_id));
      const decided = sc(
        await client.callTool({ name: "approval_status", arguments: { action_id: s.action_id } }),
      );
      expect(decided.approval).toMatchObject({
        status: "approved",
        decided_by: { name: "Alice", role: "member" },
      });
      expect(decided.message).toMatch(/^approved by Alice at \d\d:\d\d UTC$/);
      // Another person's agent cannot read Alice's action's status.
      const gina = await w.connect(w.keys.gina);
      expect(
        sc(await gina.callTool({ name: "approval_status", arguments: { action_id: s.action_id } })),
      ).toMatchObject({
        outcome: "not_found",
      });
    });

    it("confirm without approval is rejected with approval_pending, the approval URL and next_actions (2025 client)", async () => {
      const client = await w.connect(w.keys.alice, { mode: "legacy" });
      const s = sc(
        await client.callTool({
          name: "start_action",
          arguments: {
            capability: "checkout",
            patch: {
              items: [{ product_id: "prod_mug", quantity: 1 }],
              address_id: "Office",
              shipping_method: "standard",
              payment_type: "balance",
            },
          },
        }),
      );
      const refused = await client.callTool({
        name: "confirm_action",
        arguments: { action_id: s.action_id, idempotency_key: idem() },
      });
      expect(sc(refused)).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
      expect(text(refused)).toMatch(/http:\/\/localhost:3000\/confirm\//);
      expect(sc(refused).next_actions.length).toBeGreaterThan(0);
    });

    it("after-sales picks the path per order state and refuses refund-only in transit with the reason", async () => {
      const client = await w.connect(w.keys.alice);
      const expected: Record<string, string[]> = {
        ord_paid: ["refund_only"],
        ord_transit: [],
        ord_delivered: ["return_refund"],
        ord_exchange: ["return_refund", "exchange"],
        ord_shipdiff: ["return_refund", "shipping_refund"],
        ord_cancelled: [],
      };
      for (const [order, kinds] of Object.entries(expected)) {
        const s = sc(
          await client.callTool({
            name: "start_action",
            arguments: { capability: "after_sales", entity_id: order },
          }),
        );
        const offered =
          (s.options as { after_sales?: Array<{ kind: string; eligible: boolean; message: string }> })
            .after_sales ?? [];
        expect(
          offered.filter((p) => p.eligible).map((p) => p.kind),
          order,
        ).toEqual(kinds);
      }
      const transit = sc(
        await client.callTool({
          name: "start_action",
          arguments: {
            capability: "after_sales",
            entity_id: "ord_transit",
            patch: { kind: "refund_only", reason: "too slow" },
          },
        }),
      );
      expect(transit.validation_errors).toEqual([
        expect.objectContaining({ field: "kind", code: "order_already_shipped" }),
      ]);
      expect(transit.next_actions.map((n) => n.tool)).not.toContain("confirm_action");

      // Refund-only on the paid order goes through to exactly one refund.
      const started = await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid", patch: { reason: "changed my mind" } },
      });
      const s = sc(started);
      expect(s.requires_confirmation).toBe(true);
      expect(await approve(w, String(s.action_id))).toMatchObject({ outcome: "applied" });
      expect(
        sc(
          await client.callTool({
            name: "confirm_action",
            arguments: { action_id: s.action_id, idempotency_key: idem() },
          }),
        ).outcome,
      ).toBe("applied");
      expect(
        sc(await client.callTool({ name: "verify_action", arguments: { action_id: s.action_id } })),
      ).toMatchObject({ outcome: "applied" });
    });

    it("assigning a ticket across teams needs an admin's approval (not the requester's); same team does not", async () => {
      const client = await w.connect(w.keys.sam);
      const cross = await client.callTool({
        name: "start_action",
        arguments: { capability: "assign_ticket", entity_id: "tkt_1", patch: { assignee_id: "tm_sid" } },
      });
      const c = sc(cross);
      expect(c).toMatchObject({ status: "awaiting_approval", requires_confirmation: true });
      const earlyResult = await client.callTool({
        name: "confirm_action",
        arguments: { action_id: c.action_id, idempotency_key: idem() },
      });
      expect(sc(earlyResult)).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
      // Sam asked for it, but the policy names an admin: Sam's own approval is refused.
      expect(await approve(w, String(c.action_id), w.person.sam)).toMatchObject({
        outcome: "rejected",
        reason: "not_your_approval",
        message: "Only an admin can decide this action",
      });
      const decided = await approve(w, String(c.action_id), w.person.adam);
      expect(decided.outcome, String(decided.message)).toBe("applied");
      expect(
        sc(
          await client.callTool({
            name: "confirm_action",
            arguments: { action_id: c.action_id, idempotency_key: idem() },
          }),
        ).outcome,
      ).toBe("applied");
      expect(
        sc(await client.callTool({ name: "verify_action", arguments: { action_id: c.action_id } })).outcome,
      ).toBe("applied");

      const same = await client.callTool({
        name: "start_action",
        arguments: { capability: "assign_ticket", entity_id: "tkt_2", patch: { assignee_id: "tm_sara" } },
      });
      expect(sc(same)).toMatchObject({ status: "open" });
      expect(approvalMeta(same)).toBeUndefined();
    });

    describe("typed refusals", () => {
      it("identity fields in arguments are a typed, audited invalid_arguments refusal", async () => {
        const client = await w.connect(w.keys.alice);
        const res = await client.callTool({
          name: "start_action",
          arguments: { capability: "checkout", tenant_id: "globex" },
        });
        expect(res.isError ?? false).toBe(false);
        expect(sc(res)).toMatchObject({
          outcome: "rejected",
          reason: "invalid_arguments",
          retryable: false,
          next_actions: [],
          validation_errors: [expect.objectContaining({ field: "tenant_id", code: "unknown_field" })],
        });
        expect(text(res)).toMatch(/^rejected: .*tenant_id/);
        const role = await client.callTool({
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_paid", role: "admin" },
        });
        expect(sc(role)).toMatchObject({
          outcome: "rejected",
          reason: "invalid_arguments",
          validation_errors: [expect.objectContaining({ field: "role", code: "unknown_field" })],
        });
        // Support's live monitor sees both attempts: one rejected row each, on alice's agent.
        const rows = await w.db.auditEvent.findMany({
          where: {
            tenantId: "acme",
            outcome: "rejected",
            operation: { in: ["action.started", "context.read"] },
          },
          orderBy: { seq: "asc" },
        });
        const tried = rows.map((r) => JSON.stringify(r.arguments));
        expect(tried.some((a) => a.includes('"tenant_id":"globex"'))).toBe(true);
        expect(tried.some((a) => a.includes('"role":"admin"'))).toBe(true);
      });

      it("another tenant's object is not_found", async () => {
        const gina = await w.connect(w.keys.gina);
        const res = sc(
          await gina.callTool({ name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } }),
        );
        expect(res.outcome).toBe("not_found");
        const aliceClient = await w.connect(w.keys.alice);
        const s = sc(
          await aliceClient.callTool({
            name: "start_action",
            arguments: { capability: "after_sales", entity_id: "ord_paid" },
          }),
        );
        const foreign = sc(
          await gina.callTool({ name: "get_context", arguments: { action_id: s.action_id } }),
        );
        expect(foreign.outcome).toBe("not_found");
      });

      it("a stale version is a conflict carrying the current version", async () => {
        const client = await w.connect(w.keys.alice);
        const s = sc(
          await client.callTool({
            name: "start_action",
            arguments: { capability: "after_sales", entity_id: "ord_paid" },
          }),
        );
        const moved = sc(
          await client.callTool({
            name: "advance_action",
            arguments: { action_id: s.action_id, version: s.version, patch: { reason: "changed my mind" } },
          }),
        );
        const stale = sc(
          await client.callTool({
            name: "advance_action",
            arguments: { action_id: s.action_id, version: s.version, patch: { reason: "again" } },
          }),
        );
        expect(stale).toMatchObject({ outcome: "conflict", reason: "stale_version", version: moved.version });
      });

      it("a call not in next_actions is rejected with the reason and the list", async () => {
        const client = await w.connect(w.keys.alice);
        const s = sc(
          await client.callTool({
            name: "start_action",
            arguments: { capability: "after_sales", entity_id: "ord_paid" },
          }),
        );
        const res = sc(
          await client.callTool({ name: "recover_action", arguments: { action_id: s.action_id } }),
        );
        expect(res).toMatchObject({ outcome: "rejected", reason: "not_in_next_actions" });
        expect(res.next_actions.length).toBeGreaterThan(0);
      });
    });
  },
);
