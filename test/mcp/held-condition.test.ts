import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * A change that needs nobody's approval never runs at once on words that make it conditional or
 * take it back (review 54b: "… if the price drops" cancelled an unpaid order, "… Actually, don't."
 * changed a priority): it waits at its confirmation, said so, for the user's word. A courtesy ("if
 * possible") and a change's own meaning ("pending until the customer replies") run as before.
 */
describe("conditional words hold a change (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = (path: string) => legacyRecord(w, path);
  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent } });

  it.each([
    ["Change tkt_2's priority to urgent if Sid agrees", "if sid agrees"],
    ["Change tkt_2's priority to urgent. Actually, don't.", "actually, don't"],
    ["Change tkt_2's priority to urgent once the customer calls back", "once the customer calls back"],
  ])("%s: held, nothing changed", async (intent, phrase) => {
    const out = await start(w.keys.sam, intent);
    expect(sc(out).status, text(out)).toBe("open");
    expect(text(out)).toContain(`not run yet: the words make it depend on something ("${phrase}")`);
    expect((await legacy("tickets/tkt_2")).priority).toBe("normal");
  });

  it("an unpaid order is not cancelled on words that only put a condition on paying it", async () => {
    const out = await start(w.keys.alice, "Put my unpaid kettle order on my card if the price drops");
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect((await legacy("orders/ord_pending")).status).toBe("pending_payment");
  });

  it.each([
    ["Cancel my unpaid kettle order if possible", "orders/ord_pending", "status", "cancelled"],
    ["Set tkt_2 to pending until the customer replies", "tickets/tkt_2", "status", "pending"],
  ])("%s: runs as before", async (intent, path, field, value) => {
    const key = path.startsWith("orders") ? w.keys.alice : w.keys.sam;
    const out = await start(key, intent);
    expect(sc(out).status, text(out)).toBe("completed");
    expect((await legacy(path))[field]).toBe(value);
  });
});
