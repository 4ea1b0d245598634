import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BG (both hosts): "Cancel the order I just placed", submitted on a paid order's cancel form,
 * was refused ("use after_sales (Cancel and refund)"), and the model submitted the same words on
 * the after-sales form: a call more than start_action by those words, which starts the after-sales
 * request in place of the refused cancel. A start that names its capability and sends the user's
 * words does the same, under the capability's own rules: the refund still waits for the person.
 */
describe("a named start refused on its record starts the one its refusal points at (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a paid order's cancel form with the user's words: the after-sales refund waits for Alice", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://order/ord_paid/cancel",
        fields: { user_words: "Cancel the order I just placed." },
      },
    });
    expect(text(out)).toContain(
      "**Started instead:** `after_sales` (this form's cancel_unpaid_order, refused: ord_paid is paid)",
    );
    expect(text(out)).toMatch(/Status:\*\* awaiting_approval/);
    expect(((await legacyJson(w.legacy, "orders/ord_paid")) as Record<string, unknown>).status).toBe("paid");
  });

  it("start_action naming the cancel with the user's words: the same; without words, refused as before", async () => {
    const alice = await w.connect(w.keys.alice);
    const named = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "cancel_unpaid_order",
          entity_id: "ord_paid",
          intent: "Cancel my lamp order",
        },
      }),
    );
    expect(named).toMatchObject({ capability: "after_sales", status: "awaiting_approval" });
    expect(named.instead_of).toMatch(/^cancel_unpaid_order, refused/);
    const bare = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { capability: "cancel_unpaid_order", entity_id: "ord_paid" },
      }),
    );
    expect(bare).toMatchObject({ capability: "cancel_unpaid_order", status: "refused" });
  });

  it("words that ask for nothing the refusal points at start nothing else", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "cancel_unpaid_order",
          entity_id: "ord_paid",
          intent: "Track my lamp order",
        },
      }),
    );
    expect(out).toMatchObject({ capability: "cancel_unpaid_order", status: "refused" });
  });
});
