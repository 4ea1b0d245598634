import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Sets CW and CX (played): a detail of the started change, or the change itself said twice, was
 * offered as another ask. "Buy what's in my cart; send it to my home, standard shipping, and pay
 * by card" offered "send it to my home" as the imported systems' generic write (its title "Send a
 * request …"); "Take Bella off the kettle refund ticket; leave it unassigned" offered the
 * unassignment it had started. A model following either would start a second change.
 */
describe("another ask is never the started change or its detail (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const start = async (key: string, intent: string) =>
    (await w.connect(key)).callTool({ name: "start_action", arguments: { intent, dry_run: true } });
  const otherAsks = (out: Awaited<ReturnType<typeof start>>) =>
    ((sc(out).next_actions ?? []) as Array<{ description?: string; args?: { capability?: string } }>).filter(
      (n) => n.description?.startsWith("also asked"),
    );

  it("'send it to my home' beside a purchase is the purchase's address, no other ask", async () => {
    for (const intent of [
      "Buy what's in my cart; send it to my home, standard shipping, and pay by card.",
      "Buy a Desk Lamp, please ship it to my office by express, pay by card.",
    ]) {
      const out = await start(w.keys.alice, intent);
      expect(sc(out).capability, intent).toBe("checkout");
      expect(otherAsks(out), `${intent}\n${text(out)}`).toEqual([]);
    }
  });

  it("the generic imported write is found only by words naming an imported system", async () => {
    const alice = await w.connect(w.keys.alice);
    const found = text(
      await alice.callTool({ name: "search_capabilities", arguments: { query: "send it to my home" } }),
    );
    expect(found).not.toContain("api_request");
    const adam = await w.connect(w.keys.adam);
    const named = text(
      await adam.callTool({
        name: "search_capabilities",
        arguments: { query: "send a write request to the imported API" },
      }),
    );
    expect(named.split("\n").find((l) => l.startsWith("1."))).toContain("`api_request`");
  });

  it("the started unassignment said twice is one ask; another ticket's is still offered", async () => {
    const once = await start(w.keys.sam, "Take Bella off the kettle refund ticket; leave it unassigned.");
    expect(sc(once)).toMatchObject({ capability: "unassign_ticket", entity: { id: "tkt_3" } });
    expect(otherAsks(once), text(once)).toEqual([]);
    const two = await start(
      w.keys.sam,
      "Take Bella off the kettle refund ticket and leave it unassigned, then take Sid off the headphones ticket",
    );
    expect(otherAsks(two).map((n) => n.args?.capability)).toEqual(["unassign_ticket"]);
    expect(text(two)).toContain('also asked: "take Sid off the headphones ticket"');
  });

  it("assent and asking to be told are no asks: nothing is said not done", async () => {
    for (const intent of [
      "Change my kettle order address to my home and let me know",
      "Go ahead and change the address of my kettle order to my home",
      "OK, please change the address of my kettle order to my home, thanks",
    ]) {
      const out = await start(w.keys.alice, intent);
      expect(sc(out).capability, intent).toBe("change_delivery_address");
      expect(text(out), intent).not.toMatch(/not done/);
    }
    // A clause that asks something no capability does is still said.
    const left = await start(w.keys.alice, "Change my kettle order address to my home and call the courier");
    expect(text(left)).toMatch(/not done: "call the courier"/);
  });

  // Review 67: "imported" made a topic word hid every shop capability ("buy an imported lamp" was
  // "no capability does it"); a system named by its own name lost the imported write.
  it("the imported write's words hide nothing else; a system named by name still finds it", async () => {
    for (const [intent, capability] of [
      ["Buy two mugs and an imported lamp", "checkout"],
      ["Track my imported headphones", "track_shipment"],
      ["Buy two mugs and pay the import fees by card", "checkout"],
    ] as const) {
      const out = await start(w.keys.alice, intent);
      expect(sc(out).capability, `${intent}\n${text(out)}`).toBe(capability);
    }
    const adam = await w.connect(w.keys.adam);
    const found = text(
      await adam.callTool({
        name: "search_capabilities",
        arguments: { query: "send a request to the legacy system" },
      }),
    );
    expect(found.split("\n").find((l) => l.startsWith("1."))).toContain("`api_request`");
  });

  // Review 67: the held value picked the started ticket for "take Sid off it" said of another
  // ticket, and the ask was dropped as said twice; a status change "on the tee ticket" said with
  // "it" was read as the started ticket's and dropped as done (older than this change).
  it("an ask on another record, said with 'it', is never the started change", async () => {
    const other = await start(
      w.keys.sam,
      "Unassign the headphones ticket; and for the parcel damaged ticket, take Sid off it",
    );
    expect(text(other)).toMatch(/take Sid off it/);
    const tee = await start(
      w.keys.sam,
      "Set the headphones ticket to pending and set it to pending on the tee ticket as well",
    );
    expect(sc(tee).entity).toMatchObject({ id: "tkt_2" });
    expect(text(tee)).toMatch(/also asked: "set it to pending on the tee ticket as well"/);
  });

  // Review 67b: "in the ticket" names no record of its own (the assigned one is meant); "take
  // Bella off it" after the unassignment of the ticket she holds is that change said twice.
  it("a bare 'the ticket' after on/in points back; 'it' said twice is one change", async () => {
    const marked = await start(
      w.keys.sam,
      "Assign the charged twice ticket to Sid and mark it urgent in the ticket",
    );
    const priority = otherAsks(marked).find((n) => n.args?.capability === "change_ticket_priority");
    expect(priority?.args, text(marked)).toMatchObject({ entity_id: "tkt_1" });
    const twice = await start(w.keys.sam, "Unassign the kettle refund ticket, take Bella off it");
    expect(sc(twice)).toMatchObject({ capability: "unassign_ticket", entity: { id: "tkt_3" } });
    expect(otherAsks(twice), text(twice)).toEqual([]);
  });
});
