import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Next = { tool: string; args?: Record<string, unknown> };

/**
 * Issue 23, played (set S): "Close the coupon not applied ticket." (a resolved ticket) was
 * answered "already resolved: nothing to change" — only resolve_ticket spoke of closing — and the
 * ticket stayed resolved. close_ticket closes a resolved ticket, its resolution kept; an open one
 * is resolve_ticket's first (closing needs a resolution). Seed: tkt_1 open, tkt_5 and tkt_6
 * resolved, tkt_7 closed. As sam (support) over HTTP, the legacy helpdesk read back each time.
 */
describe("closing a resolved ticket (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = async (id: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as { status: string; resolution: string | null };
  const start = async (args: Record<string, unknown>) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: args });

  it("'Close the coupon not applied ticket.' closes the resolved ticket in one call, its resolution kept", async () => {
    const out = await start({ intent: "Close the coupon not applied ticket." });
    expect(sc(out), text(out)).toMatchObject({
      outcome: "applied",
      capability: "close_ticket",
      status: "completed",
    });
    expect(sc(out).from_words).toMatchObject({ ticket_id: "tkt_5" });
    // What was done shows the resolution the ticket keeps.
    expect(text(out)).toMatch(
      /Status before: resolved · Status after: closed · Resolution: Applied the discount/,
    );
    expect(await ticket("tkt_5")).toMatchObject({
      status: "closed",
      resolution: "Applied the discount as store credit.",
    });
    // Closed already: the same answer as the other capabilities' same-status one.
    const again = await start({ capability: "close_ticket", entity_id: "tkt_5" });
    expect(sc(again)).toMatchObject({ outcome: "rejected", reason: "ticket_already_closed" });
    expect(text(again)).toMatch(/already closed: nothing to change/);
  });

  it("an open ticket is refused, naming resolve_ticket: closing needs a resolution first", async () => {
    const out = await start({ capability: "close_ticket", entity_id: "tkt_1" });
    expect(sc(out), text(out)).toMatchObject({ outcome: "rejected", reason: "ticket_not_resolved" });
    expect(String(sc(out).message)).toMatch(/open, not resolved; resolve it with resolve_ticket first/);
    expect(sc(out).next_actions as Next[]).toContainEqual(
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "resolve_ticket", entity_id: "tkt_1" },
      }),
    );
    expect((await ticket("tkt_1")).status).toBe("open");
  });

  it("closing an open ticket with what was fixed is resolve_ticket's; 'close a resolved ticket' is close_ticket's", async () => {
    const sam = await w.connect(w.keys.sam);
    const first = async (query: string) =>
      (
        (sc(await sam.callTool({ name: "search_capabilities", arguments: { query } })).results ??
          []) as Array<{ capability: string }>
      )[0]?.capability;
    expect(await first("close a resolved ticket")).toBe("close_ticket");
    expect(await first("archive the ticket")).toBe("close_ticket");
    expect(await first("close this open ticket, we fixed it")).toBe("resolve_ticket");
    // The ticket the agent has open: resolved with the user's words, never closed.
    const held = await start({ intent: "Close this open ticket: we fixed the charge", entity_id: "tkt_1" });
    expect(sc(held), text(held)).toMatchObject({ capability: "resolve_ticket" });
    expect(String((sc(held).from_words as Record<string, unknown>).resolution)).toContain(
      "we fixed the charge",
    );
    // Described by words: resolved in one call.
    const described = await start({
      intent: "Close the open charged twice ticket: we refunded the second charge",
    });
    expect(sc(described), text(described)).toMatchObject({
      capability: "resolve_ticket",
      status: "completed",
    });
    expect(await ticket("tkt_1")).toMatchObject({
      status: "resolved",
      resolution: "we refunded the second charge",
    });
    // "Close" of an open ticket without a resolution: resolve_ticket asks for one instead.
    await w.legacy.reset();
    const bare = await start({ intent: "Close the charged twice ticket." });
    expect(sc(bare), text(bare)).toMatchObject({ capability: "resolve_ticket", missing: ["resolution"] });
    expect(String(sc(bare).instead_of)).toMatch(/^close_ticket, refused: The ticket is open, not resolved/);
    expect((await ticket("tkt_1")).status).toBe("open");
  });

  it("the ticket page offers the Close form on a resolved ticket only; submitted, it closes", async () => {
    const browse = await w.connect(w.keys.sam, { faces: "browse" });
    const page = async (uri: string) => text(await browse.callTool({ name: "navigate", arguments: { uri } }));
    expect(await page("helpdesk://ticket/tkt_6")).toContain("[close_ticket](helpdesk://ticket/tkt_6/close)");
    expect(await page("helpdesk://ticket/tkt_1")).not.toContain("helpdesk://ticket/tkt_1/close");
    expect(await page("helpdesk://ticket/tkt_7")).not.toContain("helpdesk://ticket/tkt_7/close");
    const submitted = await browse.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_6/close",
        fields: { user_words: "Close the parcel damaged ticket" },
      },
    });
    expect(text(submitted), text(submitted)).toMatch(/Close the ticket/);
    expect(await ticket("tkt_6")).toMatchObject({ status: "closed", resolution: "Replacement shipped." });
  });
});
