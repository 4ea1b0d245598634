import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../../mcp/mcp-world";

const SAID =
  "No ticket is assigned to you: tickets go to helpdesk teammates, and you are not one (nothing more to look up). These are the tickets you raised.";

/**
 * "mine" asked by someone no ticket can be assigned to says what it answered instead: Sam
 * (support, no helpdesk teammate) listed `?mine=1`, got a ticket he had only raised, and spent
 * three calls finding out why.
 */
describe("helpdesk://tickets?mine=1 for a caller who is no teammate", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("the listing and the record search say, in one line, that these are the tickets raised", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const call = async (name: string, args: Record<string, unknown>) =>
      text(await sam.callTool({ name, arguments: args }));

    const mine = await call("navigate", { uri: "helpdesk://tickets?mine=1" });
    expect(mine.split("\n").filter((l) => l === SAID)).toHaveLength(1);
    expect(mine).toMatch(/\| `tkt_6` \| Parcel damaged \|/);

    const none = await call("navigate", { uri: "helpdesk://tickets?mine=1&status=open" });
    expect(none).toContain(
      "No ticket is assigned to you: tickets go to helpdesk teammates, and you are not one (nothing more to look up); you raised none.",
    );
    expect(none).not.toContain(SAID);

    // The record search that reads "my …" as mine says it above the tickets it found.
    const search = await call("search", { query: "my damaged parcel" });
    expect(search).toContain(`- ${SAID}\n- [Ticket tkt_6: Parcel damaged](helpdesk://ticket/tkt_6)`);

    // The listing without "mine" says nothing of it.
    expect(await call("navigate", { uri: "helpdesk://tickets" })).not.toContain("helpdesk teammate");
  });
});
