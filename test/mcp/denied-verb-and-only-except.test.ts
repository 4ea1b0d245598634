import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Review of issue 23's set-apart words: a change nobody approves (a delivery address) took the
 * very label the user refused when the negation denied a verb ("don't ship it to my home" took
 * home), and "nothing other than home" / "no address except home" (meaning only home) set home
 * apart, leaving the label the user rejected as the one named.
 */
describe("a denied verb denies the label after it; 'nothing except' means only", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const taken = async (intent: string) => {
    const out = sc(
      await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { capability: "change_delivery_address", entity_id: "ord_pending", intent, dry_run: true },
      }),
    );
    return (out.from_words as Json | undefined)?.address_id;
  };

  it.each([
    "Don't ship my unpaid order to my home.",
    "I do not want my unpaid order to go home.",
    "Please never deliver my unpaid order to my home.",
  ])("%s does not take home", async (intent) => {
    expect(await taken(intent)).toBeUndefined();
  });

  // The order already goes to the office: home is the one change the user refused.
  it.each([
    "Home won't do, nothing other than the office for my unpaid order.",
    "Send my unpaid order home? No, nothing other than the office.",
    "I moved out of my home, so no address except the office for my unpaid order.",
  ])("%s never takes home", async (intent) => {
    expect(await taken(intent)).not.toBe("addr_alice_home");
  });

  it.each([
    ["Don't send my unpaid order to the office, send it home.", "addr_alice_home"],
    ["Send my unpaid order nowhere other than home.", "addr_alice_home"],
    ["Send my unpaid order to my home instead of the office.", "addr_alice_home"],
    ["Don't ship my unpaid order anywhere except home.", "addr_alice_home"],
  ])("%s takes the label meant", async (intent, address) => {
    expect(await taken(intent)).toBe(address);
  });
});
