import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set DC (both hosts, 2 calls): "Send my unpaid order to my home address instead." asked the user
 * which of one order ("leaves 1 order that can take this …; ord_cancelled fits too but the order is
 * cancelled; ask the user which one"). A word denying by its own prefix before the record's name,
 * with no other negation in the words, says what the record is; a clause's negation ("the one I
 * haven't paid for", "I never said it was unpaid") still never names the record of a change nobody
 * approves.
 */
describe("'my unpaid order' names the record (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });

  it("the address change runs on the one open unpaid order, saying the cancelled one fits too", async () => {
    await w.legacy.reset();
    const out = await start("Send my unpaid order to my home address instead.");
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toMatch(
      /order_id = ord_pending \(fits not "paid".*ord_cancelled fits too but the order is cancelled/,
    );
  });

  it("a clause's negation runs nothing at once", async () => {
    await w.legacy.reset();
    const intent = "Send the order I haven't paid for to my home address";
    const out = await start(intent);
    expect(sc(out).status, `${intent}\n${text(out)}`).not.toBe("completed");
    expect(text(out)).not.toMatch(/^applied/);
  });
});
