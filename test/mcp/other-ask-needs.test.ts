import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * An ask of the words left for its own call says the fields its start would still stop for, so
 * they go with that one call (set AM: "… Then resolve the ticket" took the start, its "missing:
 * resolution" and an advance). Nothing of it runs before that call.
 */
describe("another ask's call says what its start needs (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = (id: string) =>
    legacyRecord<{ status: string; resolution: string | null }>(w, `tickets/${id}`);

  it("the reply runs, the resolve is offered with 'needs resolution', and one start with it resolves", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Reply to the customer on the kettle refund ticket: 'Your refund was sent today.' Then resolve the ticket.",
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toMatch(
      /also asked: "resolve the ticket"; its start needs resolution: send in patch, from the user.s words, never a guess/,
    );
    expect((await ticket("tkt_3")).status).toBe("pending");
    const offered = (sc(out).next_actions as Array<{ args?: Record<string, unknown> }>).find(
      (n) => n.args?.capability === "resolve_ticket",
    );
    const resolved = await sam.callTool({
      name: "start_action",
      arguments: { ...offered?.args, patch: { resolution: "Refund sent to the customer today." } },
    });
    expect(sc(resolved).status, text(resolved)).toBe("completed");
    expect(await ticket("tkt_3")).toMatchObject({
      status: "resolved",
      resolution: "Refund sent to the customer today.",
    });
  });
});
