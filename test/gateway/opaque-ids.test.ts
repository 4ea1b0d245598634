import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type World } from "./gateway-world";

/**
 * Ids an agent sees say nothing about anyone else's activity. Time-and-counter ids (cuid v1)
 * let one tenant count how many records every other tenant created between two of its own
 * calls; random ids (cuid2) do not.
 */
describe("ids given to agents are opaque", () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("consecutive action ids share no time or counter prefix, with another tenant's actions in between", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const mine = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_paid",
      });
      ids.push(String(mine.action_id));
      await w.gw.startAction(w.agent.gina, { capability: "checkout" });
    }
    expect(new Set(ids).size).toBe(20);
    // cuid v1 ids made within a second share their first 6 characters ('c' and the timestamp).
    const prefixes = new Set(ids.map((id) => id.slice(0, 6)));
    expect(prefixes.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
  });
});
