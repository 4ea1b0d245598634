import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { capabilityRegistry } from "@/server/connectors/connector-registry";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { idem } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * The attack from issue 8: an agent that holds only its key tries to approve its own side effect.
 * Every capability whose policy can ask a person is listed here with a patch that reaches its
 * confirmation node; a capability added later without an entry fails the coverage check below.
 */
const SCENARIOS: Record<
  string,
  { who: "alice" | "sam"; entity_id?: string; patch: Record<string, unknown> }
> = {
  checkout: {
    who: "alice",
    patch: {
      items: [{ product_id: "prod_mug", quantity: 2 }],
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
    },
  },
  after_sales: { who: "alice", entity_id: "ord_paid", patch: { reason: "changed my mind" } },
  pay_order: { who: "alice", entity_id: "ord_pending", patch: { payment_type: "balance" } },
  // The caller's own cart: the user approves (review 52c).
  update_cart: { who: "alice", patch: { product_id: "prod_tee", quantity: 0 } },
  // The whole cart at once: the user approves, as a line's change.
  empty_cart: { who: "alice", patch: {} },
  // Across teams (billing → shipping): the policy asks an admin.
  assign_ticket: { who: "sam", entity_id: "tkt_1", patch: { assignee_id: "tm_sid" } },
  // Moving work to another team is that team's lead's call: an admin approves.
  move_ticket_to_team: { who: "sam", entity_id: "tkt_1", patch: { team_id: "shipping" } },
  // Taking a ticket off its holder: the person who asked approves (review 56c).
  unassign_ticket: { who: "sam", entity_id: "tkt_2", patch: { assignee_id: "tm_sid" } },
  // A write of an imported system (the legacy API's own document), granted to members.
  api_request: {
    who: "alice",
    patch: { target: "legacy://v1/tickets/tkt_2/update", values: { priority: "high" } },
  },
};

/** Every string anywhere in a value: what a model could copy out of a result. */
function strings(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

describeEachProvider(
  "an agent cannot approve its own side effect, for any capability that needs approval (%s)",
  (provider) => {
    let w: McpWorld;
    beforeAll(async () => {
      w = await createMcpWorld(provider);
      await importLegacyApi(w, { grants: [{ role: "member", pattern: "legacy://v1/tickets/*/update" }] });
    });
    afterAll(async () => w?.close());
    beforeEach(async () => w.legacy.reset());

    it("covers every capability whose policy can require an approval", () => {
      const needing = [...capabilityRegistry().values()]
        .filter((c) => c.policy.approval !== "never")
        .map((c) => c.id)
        .sort();
      expect(Object.keys(SCENARIOS).sort()).toEqual(needing);
    });

    it.each(Object.keys(SCENARIOS))(
      "%s: nothing in any result, nor any tool, approves; confirm stays refused; nothing reaches the system of record",
      async (capability) => {
        const scenario = SCENARIOS[capability];
        if (!scenario) throw new Error(`no scenario for ${capability}`);
        const client: Client = await w.connect(w.keys[scenario.who]);
        const tools = (await client.listTools()).tools;
        // No tool decides anything: the only approval tool reads status.
        const approvalTools = tools.filter((t) => /approv|decid/i.test(t.name));
        expect(approvalTools.map((t) => t.name)).toEqual(["approval_status"]);
        expect(approvalTools[0]?.annotations?.readOnlyHint).toBe(true);
        expect(Object.keys(approvalTools[0]?.inputSchema.properties ?? {})).toEqual(["action_id"]);

        const started = await client.callTool({
          name: "start_action",
          arguments: {
            capability,
            ...(scenario.entity_id ? { entity_id: scenario.entity_id } : {}),
            patch: scenario.patch,
          },
        });
        const s = sc(started);
        expect(s, JSON.stringify(s).slice(0, 400)).toMatchObject({
          outcome: "applied",
          requires_confirmation: true,
          approval: { status: "pending" },
        });
        const actionId = String(s.action_id);
        const results: unknown[] = [started];
        results.push(await client.callTool({ name: "get_context", arguments: { action_id: actionId } }));
        results.push(await client.callTool({ name: "approval_status", arguments: { action_id: actionId } }));
        // The agent replays every string it was ever shown as the idempotency key, and tries the
        // approval tools the old surface had.
        const seen = [...strings(results)].filter((v) => v.length >= 8 && v.length <= 200);
        const reasons = new Set<string>();
        for (const value of seen.slice(0, 40)) {
          const tried = await client.callTool({
            name: "confirm_action",
            arguments: { action_id: actionId, version: s.version, idempotency_key: value },
          });
          const out = sc(tried);
          // Refused as unapproved, or (for strings that are no valid key) as invalid arguments.
          expect(out.outcome, value).toBe("rejected");
          expect(["approval_pending", "invalid_arguments"], value).toContain(out.reason);
          reasons.add(String(out.reason));
          results.push(tried);
        }
        expect(reasons.has("approval_pending")).toBe(true);
        for (const name of ["decide_approval", "approve_action", "approve"]) {
          await expect(
            client.callTool({
              name,
              arguments: { action_id: actionId, version: s.version, decision: "approve" },
            }),
          ).rejects.toThrow(/not found/);
        }
        // Nothing moved: the approval is pending, undecided; no effect was claimed.
        expect(await w.db.approval.findFirst({ where: { actionId } })).toMatchObject({
          status: "pending",
          decidedById: null,
        });
        expect(await w.db.effect.count({ where: { actionId } })).toBe(0);
        // And nothing in any result named a credential the console would take.
        const everything = JSON.stringify(results);
        expect(everything).not.toMatch(/apt_|approval_token|sp_session/);
        expect(everything).not.toContain(w.keys[scenario.who]);
        // The only decision path is a person's: the policy's approver approves, then one confirm applies.
        const byAdmin = capability === "assign_ticket" || capability === "move_ticket_to_team";
        const approver = byAdmin ? w.person.adam : w.person[scenario.who];
        const row = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
        expect(
          await w.gw.decideApproval(approver, {
            action_id: actionId,
            version: row.version,
            decision: "approve",
          }),
        ).toMatchObject({ outcome: "applied" });
        const confirmed = sc(
          await client.callTool({
            name: "confirm_action",
            arguments: { action_id: actionId, version: row.version, idempotency_key: idem("attack") },
          }),
        );
        expect(confirmed.outcome, String(confirmed.message)).toBe("applied");
        expect(await w.db.effect.count({ where: { actionId, status: "applied" } })).toBe(1);
      },
    );

    it("calls to tools the agent does not have (decide_approval, browse on the action face) are refused and on record", async () => {
      const before = (await w.db.auditEvent.findFirst({ orderBy: { id: "desc" } }))?.seq ?? 0;
      const call = (id: number, name: string, args: unknown) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      });
      const response = await fetch(`${w.endpoint}?faces=actions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${w.keys.alice}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify([
          call(1, "decide_approval", { action_id: "act_x", decision: "approve", token: "apt_guess" }),
          call(2, "navigate", { uri: "shop://orders" }),
          call(3, "start_action", ["checkout"]),
        ]),
      });
      expect(response.status).toBe(200);
      const body = await response.text();
      // The protocol layer's refusals: no tool, and no result that approves anything.
      expect(body).toMatch(/decide_approval not found/);
      expect(body).not.toMatch(/"outcome":"applied"/);
      const rows = await w.db.auditEvent.findMany({
        where: { tenantId: "acme", seq: { gt: before }, operation: "mcp.tool_refused" },
        orderBy: { seq: "asc" },
      });
      expect(rows.map((r) => [r.target, r.outcome, r.face])).toEqual([
        ["tool:decide_approval", "rejected", "actions"],
        ["tool:navigate", "rejected", "actions"],
        ["tool:start_action", "rejected", "actions"],
      ]);
      expect(rows[0]?.agentId).toBeTruthy();
      expect(rows[0]?.message).toMatch(/No tool "decide_approval"/);
      expect(rows[2]?.message).toMatch(/arguments must be a JSON object/);
      // What the agent sent is kept (redacted and bounded) for support, like any call's arguments.
      expect(rows[0]?.arguments).toMatchObject({ action_id: "act_x", decision: "approve" });
    });
  },
);
