import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const WORDS = "Buy two mugs, ship them express to the office, pay from my balance.";
const CHECKOUT = {
  uri: "shop://checkout",
  fields: {
    items: [{ product_id: "prod_mug", quantity: 2 }],
    address_id: "Office",
    shipping_method: "express",
    payment_type: "balance",
    user_words: WORDS,
  },
};

type Manual = {
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
};

/** A 2026-07-28 host that opens URLs and hands input_required back to the test (browse face only). */
async function manualBrowseClient(w: McpWorld, key: string): Promise<Client> {
  const client = new Client(
    { name: "manual", version: "1.0.0" },
    {
      versionNegotiation: { mode: "auto" },
      capabilities: { elicitation: { url: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  const url = new URL(w.endpoint);
  url.searchParams.set("faces", "browse");
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return client;
}

const callManual = async (client: Client, params: Record<string, unknown>) =>
  (await client.callTool(params as never, { allowInputRequired: true } as never)) as Manual &
    Record<string, unknown>;

/**
 * Played (issue 23, sets R/S): on a host that opens URLs for its person, a browse submit that
 * stopped at the person's approval answered a page, and the model read the result afterwards. It
 * now keeps the call open as start_action does: the host sends the person to the approval screen
 * and its retry answers the action's page with what their approval carried out. Real MCP client
 * over HTTP, gateway and legacy service.
 */
describe("a browse submit waiting on a person's approval, on a URL elicitation host (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const checkouts = () => w.db.action.count({ where: { capability: "checkout" } });

  it("one submit: the person is sent to the approval screen, approves there, and the same call answers the completed action", async () => {
    const shown: Array<{ url: string; message: string }> = [];
    const client = await w.connect(w.keys.alice, {
      faces: "browse",
      elicitationModes: { url: true },
      elicit: async (params) => {
        shown.push({ url: String(params.url), message: String(params.message) });
        // The person opens the console link and approves there (the console's decision route).
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
    const before = await checkouts();
    const res = await client.callTool({ name: "submit", arguments: CHECKOUT });
    expect(shown).toHaveLength(1);
    const actionId = shown[0]?.url.split("/confirm/")[1] ?? "";
    expect(shown[0]?.url).toBe(`http://localhost:3000/confirm/${actionId}`);
    // What the person approves, in one line, as the action face's host shows it.
    expect(shown[0]?.message).toMatch(
      /^Pay \$48\.00 from Store credit .*Decide in Signpost, then continue\.$/,
    );
    expect(shown[0]?.message).not.toContain("\n");
    // The answer is the action's page: done, nothing left to call.
    expect(sc(res)).toMatchObject({ uri: `actions://${actionId}`, outcome: "applied" });
    expect(text(res)).toMatch(/checkout · completed · version/);
    expect(text(res)).not.toContain("nothing to call now");
    // One action, one effect: the retry submitted nothing again.
    expect(await checkouts()).toBe(before + 1);
    expect(await w.db.effect.count({ where: { actionId } })).toBe(1);
  });

  it("a retry the person has not decided on answers the waiting action; a tampered or spent state is a rejected page, never a second submit", async () => {
    const client = await manualBrowseClient(w, w.keys.alice);
    const before = await checkouts();
    const first = await callManual(client, { name: "submit", arguments: CHECKOUT });
    expect(first.resultType).toBe("input_required");
    const ask = first.inputRequests?.approval;
    expect(ask?.params).toMatchObject({ mode: "url" });
    const actionId = String(ask?.params.url).split("/confirm/")[1] ?? "";
    expect(ask?.params.url).toBe(`http://localhost:3000/confirm/${actionId}`);
    const state = String(first.requestState);

    const [prefix, body, mac] = state.split(".");
    const tampered = `${prefix}.${body}.${mac?.slice(0, -2)}${mac?.endsWith("AA") ? "BB" : "AA"}`;
    const forged = await callManual(client, {
      name: "submit",
      arguments: CHECKOUT,
      requestState: tampered,
      inputResponses: { approval: { action: "accept" } },
    });
    expect(sc(forged)).toMatchObject({ outcome: "rejected", title: "Request state refused" });
    expect(text(forged)).toMatch(/Reason: `invalid_request_state`/);
    expect(text(forged)).toContain(`[Re-read the action](actions://${actionId})`);

    // Dismissed (or not decided yet): the action as it stands, still waiting on the person (a
    // decline withdraws it: declined-approval-withdrawn.test.ts).
    const waiting = await callManual(client, {
      name: "submit",
      arguments: CHECKOUT,
      requestState: state,
      inputResponses: { approval: { action: "cancel" } },
    });
    expect(waiting.resultType).not.toBe("input_required");
    expect(sc(waiting)).toMatchObject({ uri: `actions://${actionId}` });
    expect(text(waiting)).toMatch(/ · awaiting_approval · version \d/);

    const spent = await callManual(client, {
      name: "submit",
      arguments: CHECKOUT,
      requestState: state,
      inputResponses: { approval: { action: "accept" } },
    });
    expect(sc(spent).outcome).toBe("rejected");
    expect(text(spent)).toMatch(/Reason: `request_state_replayed`/);

    // Another agent echoing the state gets the same refusal, and sees nothing of the action.
    const sam = await manualBrowseClient(w, w.keys.sam);
    const fresh = await callManual(client, { name: "submit", arguments: CHECKOUT });
    const stolen = await callManual(sam, {
      name: "submit",
      arguments: CHECKOUT,
      requestState: String(fresh.requestState),
      inputResponses: { approval: { action: "accept" } },
    });
    expect(sc(stolen).outcome).toBe("rejected");

    // Two submits, two actions: no retry submitted anything, nothing was charged.
    expect(await checkouts()).toBe(before + 2);
    expect(await w.db.effect.count({ where: { actionId } })).toBe(0);
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", operation: "browse.submitted", outcome: "rejected" },
      orderBy: { seq: "desc" },
      take: 3,
    });
    expect(rows).toHaveLength(3);
  });

  it("a host that opens no URL gets today's page: a person must approve at the link", async () => {
    const client = await w.connect(w.keys.alice, { faces: "browse" });
    const res = await client.callTool({ name: "submit", arguments: CHECKOUT });
    expect(sc(res).outcome).toBe("applied");
    expect(text(res)).toMatch(/A person must approve version 1 before anything happens.*\/confirm\//);
    expect(text(res)).toMatch(/nothing to call now or after/);
  });
});
