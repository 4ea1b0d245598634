import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review of issue 23: a change nobody approves ran at once on the record the agent sent when the
 * words named it only among the records that can take the change. "Reopen my headphones ticket
 * about the parcel" names the open headphones ticket (a reopen cannot take it), yet sent with the
 * resolved "Parcel damaged" ticket (another customer's) it reopened that one at once, and kept it as
 * named for the next start.
 */
describe("words naming a record that cannot take the change never name another one", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  // Proved by the review, fixed by namedBeside: a record that cannot take the change holding a
  // word of the request the sent record lacks. "My kettle order home" (two kettle orders, one
  // delivered) still runs: both hold the same word (pick-beyond-words).
  it("a reopen sent with the parcel ticket asks, and the next fragment on it asks too", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = async (capability: string, intent: string) =>
      sam.callTool({
        name: "start_action",
        arguments: {
          capability,
          entity_id: "tkt_6",
          intent,
          idempotency_key: `k-${capability}-${intent.length}`,
        },
      });
    const reopen = await start(
      "reopen_ticket",
      "Reopen my headphones ticket about the parcel: still nothing",
    );
    expect(sc(reopen).status).not.toBe("completed");
    expect(text(reopen)).toContain("ask the user whether they mean tkt_6");
    const raise = await start("change_ticket_priority", "then make it urgent");
    expect(sc(raise).status).not.toBe("completed");
  });

  it("words naming the sent record above every closed one still run it", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "reopen_ticket",
        entity_id: "tkt_6",
        intent: "Reopen the parcel damaged ticket: the replacement broke too",
        idempotency_key: "k-parcel-damaged",
      },
    });
    expect(text(out)).not.toContain("ask the user whether");
  });
});
