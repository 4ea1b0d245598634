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
});
