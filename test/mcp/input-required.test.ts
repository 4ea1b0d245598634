import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { APPROVAL_MESSAGE_MAX } from "@/mcp/approval-message";
import { idem } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/** A 2026-07-28 client in manual multi-round-trip mode: it hands input_required back to the test. */
async function manualClient(w: McpWorld, key: string): Promise<Client> {
  const client = new Client(
    { name: "manual", version: "1.0.0" },
    {
      versionNegotiation: { mode: "auto" },
      capabilities: { elicitation: { form: {}, url: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(w.endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

type Manual = {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
};

async function callManual(
  client: Client,
  params: Record<string, unknown>,
): Promise<Manual & Record<string, unknown>> {
  return (await client.callTool(params as never, { allowInputRequired: true } as never)) as never;
}

describe("input_required (2026-07-28 multi round-trip) with signed requestState", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("asks the person for missing fields with a form, then advances the action with the answers", async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await w.connect(w.keys.alice, {
      elicit: async (params) => {
        asked.push(params);
        return { action: "accept", content: { reason: "changed my mind" } };
      },
    });
    const res = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid" },
      }),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ requestedSchema: { properties: { reason: { type: "string" } } } });
    expect(res).toMatchObject({
      requires_confirmation: true,
      summary: expect.objectContaining({ reason: "changed my mind" }),
    });
  });

  it("a paid choice asked with a form names every choice's price; the person's pick is taken", async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await w.connect(w.keys.alice, {
      elicit: async (params) => {
        asked.push(params);
        return { action: "accept", content: { shipping_method: "express" } };
      },
    });
    const res = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            address_id: "Office",
            payment_type: "balance",
          },
        },
      }),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      requestedSchema: { properties: { shipping_method: { enum: ["standard", "express", "same_day"] } } },
    });
    expect(String(asked[0]?.message)).toMatch(
      /^Signpost needs: shipping_method\nshipping_method — the user's choice.*`standard` \$\d+\.\d\d.*`express` \$\d+\.\d\d/,
    );
    expect(res).toMatchObject({
      summary: expect.objectContaining({ shipping_method: expect.objectContaining({ value: "express" }) }),
    });
  });

  it("a start that stops at the person's approval sends them to the screen (URL elicitation) and, once they approved, the same call confirms: one model call", async () => {
    const shown: Array<{ url: string; message: string }> = [];
    const client = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async (params) => {
        shown.push({ url: String(params.url), message: String(params.message) });
        // The person opens the console link and approves there.
        const actionId = String(params.url).split("/confirm/")[1] ?? "";
        const ctx = await w.gw.getContext(w.agent.alice, { action_id: actionId });
        const decided = await w.gw.decideApproval(w.person.alice, {
          action_id: actionId,
          version: ctx.version as number,
          decision: "approve",
        });
        expect(decided.outcome).toBe("applied");
        return { action: "accept" };
      },
    });
    const res = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          shipping_method: "express",
          coupon_code: "SAVE5",
          payment_type: "balance",
        },
      },
    });
    const done = sc(res);
    const actionId = String(done.action_id);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.url).toBe(`http://localhost:3000/confirm/${actionId}`);
    // The host shows the person what they decide on, in the decision's own words, and the whole
    // change the screen shows (round 4's host said only "Pay $61.00 from Store credit"): items,
    // shipping, coupon, address, payment and amount, money as everywhere else.
    const message = shown[0]?.message ?? "";
    expect(message).toMatch(/^Pay \$\d+\.\d\d from Store credit/);
    for (const fact of [
      /Item: Signpost Mug, Quantity: 2, Unit price: \$18\.00/,
      /Sum: items \$36\.00 \+ shipping \$\d+\.\d\d − coupon SAVE5 \$5\.00 = \$\d+\.\d\d/,
      /Shipping: Express/,
      /Ship to: Office: 1 Market Street/,
      /Pay with: Store credit/,
    ])
      expect(message).toMatch(fact);
    expect(message).toMatch(/Decide in Signpost, then continue\.$/);
    // Applied and verified in the same call: the model never called confirm_action.
    expect(done).toMatchObject({ outcome: "applied", status: "completed" });
    const text = (res.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toMatch(/^applied: /);
    // A retry of the whole exchange gets the first outcome back, never a second charge.
    const again = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: actionId, idempotency_key: idem() },
      }),
    );
    expect(again).toMatchObject({ outcome: "applied", status: "completed" });
    expect(shown).toHaveLength(1);
  });

  it("a person who closed the screen without deciding: the round answers not approved, and a later confirm sends them to the screen again", async () => {
    let approveNow = false;
    const urls: string[] = [];
    const client = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async (params) => {
        urls.push(String(params.url));
        // Dismissed, not declined: still theirs to decide (a decline withdraws the approval,
        // declined-approval-withdrawn.test.ts).
        if (!approveNow) return { action: "cancel" };
        const actionId = String(params.url).split("/confirm/")[1] ?? "";
        const ctx = await w.gw.getContext(w.agent.alice, { action_id: actionId });
        await w.gw.decideApproval(w.person.alice, {
          action_id: actionId,
          version: ctx.version as number,
          decision: "approve",
        });
        return { action: "accept" };
      },
    });
    const started = sc(
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
    expect(started).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    const actionId = String(started.action_id);
    approveNow = true;
    const confirmed = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: actionId, idempotency_key: idem() },
      }),
    );
    expect(urls).toEqual([
      `http://localhost:3000/confirm/${actionId}`,
      `http://localhost:3000/confirm/${actionId}`,
    ]);
    expect(confirmed).toMatchObject({ outcome: "applied", status: "completed" });
  });

  it("a large order's message stays a paragraph: cut after a whole fact, saying the screen has the rest", async () => {
    const shown: string[] = [];
    const client = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async (params) => {
        shown.push(String(params.message));
        return { action: "decline" };
      },
    });
    const products = [
      "prod_kettle",
      "prod_hoodie",
      "prod_tee_l",
      "prod_tee",
      "prod_tee_s",
      "prod_mug",
      "prod_backpack",
    ];
    await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: {
          items: products.map((product_id) => ({ product_id, quantity: 1 })),
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    });
    expect(shown).toHaveLength(1);
    const message = shown[0] ?? "";
    expect(message.length).toBeLessThanOrEqual(APPROVAL_MESSAGE_MAX);
    expect(message).toMatch(/^Pay \$\d+\.\d\d from Store credit .*Item: Electric Kettle/);
    expect(message).toMatch(/ …; the rest is on the screen\. Decide in Signpost, then continue\.$/);
  });

  it("refuses a tampered requestState with a typed rejection", async () => {
    const client = await manualClient(w, w.keys.alice);
    const first = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
    });
    expect(first.resultType).toBe("input_required");
    const state = String(first.requestState);
    const [prefix, body, mac] = state.split(".");
    const tampered = `${prefix}.${body}.${mac?.slice(0, -2)}${mac?.endsWith("AA") ? "BB" : "AA"}`;
    const res = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
      requestState: tampered,
      inputResponses: { fields: { action: "accept", content: { reason: "x" } } },
    });
    expect(sc(res)).toMatchObject({ outcome: "rejected", reason: "invalid_request_state" });
    // Nothing was applied from the forged round.
    const ctx = await w.gw.getContext(w.agent.alice, { action_id: String(peekAction(state)) });
    expect((ctx.summary as { reason?: string } | undefined)?.reason).not.toBe("x");
  });

  it("refuses a replayed requestState and one echoed by another agent", async () => {
    const client = await manualClient(w, w.keys.alice);
    const first = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
    });
    const state = String(first.requestState);
    const answer = { fields: { action: "accept", content: { reason: "changed my mind" } } };
    const ok = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
      requestState: state,
      inputResponses: answer,
    });
    expect(sc(ok).requires_confirmation).toBe(true);
    const replay = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
      requestState: state,
      inputResponses: answer,
    });
    expect(sc(replay).outcome).toBe("rejected");
    expect(["request_state_replayed", "request_state_mismatch"]).toContain(sc(replay).reason);

    const fresh = await callManual(client, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
    });
    const sam = await manualClient(w, w.keys.sam);
    const stolen = await callManual(sam, {
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_paid" },
      requestState: String(fresh.requestState),
      inputResponses: answer,
    });
    expect(sc(stolen)).toMatchObject({ outcome: "rejected", reason: "invalid_request_state" });
  });
});

function peekAction(state: string): string | undefined {
  const body = state.split(".")[1] ?? "";
  return (JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p?: { action_id?: string } }).p
    ?.action_id;
}
