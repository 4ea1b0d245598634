import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * A read-only capability's form page shows the dry run's answer: round 3's model navigated the
 * tracking page, read "Preview only, nothing was saved: Track shipment done" over an empty form
 * and no events, and had to submit the empty form to see where the parcel was.
 */
describe("a read-only capability's form page", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("shows the result of its dry run, with no form to submit", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const open = async (uri: string) => text(await alice.callTool({ name: "navigate", arguments: { uri } }));
    const page = await open("shop://order/ord_transit/tracking");
    expect(page).toContain("## Result");
    expect(page).toContain("Arrived at destination depot");
    expect(page).toContain(
      "Read-only: the answer is below; nothing was changed and there is nothing to submit.",
    );
    expect(page).not.toContain("Track shipment done");
    expect(page).not.toContain("## Form");
    // One that cannot be read (not shipped) still says why, as before.
    const unshipped = await open("shop://order/ord_paid/tracking");
    expect(unshipped).not.toContain("## Result");
    expect(unshipped).toMatch(/has not shipped yet/);
    // A capability that changes something keeps its form and its preview line.
    const afterSales = await open("shop://order/ord_delivered/after-sales");
    expect(afterSales).toContain("## Form");
    expect(afterSales).not.toContain("## Result");
  });
});
