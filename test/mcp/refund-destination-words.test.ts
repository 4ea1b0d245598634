import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Issue 23: "Cancel my lamp order and refund it to my store credit." Refunds always go back to how
 * the order was paid (a card here), and the summary said so without a word that store credit was
 * impossible. Where the words name another destination, the money line says it cannot go there.
 */
describe("after-sales: a refund destination the shop cannot use (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    text(
      await (await w.connect(w.keys.alice)).callTool({
        name: "start_action",
        arguments: { intent, dry_run: true },
      }),
    );

  // Changed on purpose (branch after-sales-ask): said on the approval's money line, the person
  // declined it; the request now stops before approval and asks (refund-destination-asked-first).
  it("store credit asked, card paid: asked before any approval, never put on the money line", async () => {
    const t = await start("Cancel my lamp order and refund it to my store credit.");
    expect(t).toMatch(
      /the money can only go back to how ord_paid was paid \(Visa •••• 4242\), not to store credit as the user asked; ask the user/,
    );
    expect(t).not.toMatch(/Money goes to/);
  });

  it("no destination named, or the one it was paid with: the plain line, no default shown", async () => {
    for (const intent of [
      "Cancel my lamp order, I changed my mind",
      "Cancel my lamp order, refund it to my card",
    ]) {
      const t = await start(intent);
      expect(t).toMatch(
        /Money goes to: Visa •••• 4242 \(how the order was paid; a refund goes nowhere else\)/,
      );
      expect(t).not.toMatch(/refund_to/);
    }
  });
});
