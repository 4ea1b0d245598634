import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BA (played): "Put the change delivery address ticket back to open and bump it to high
 * priority" was answered "several capabilities match" (the status change, the priority change
 * and the reopen), a call more on both hosts. The first ask alone tied the status change with
 * the reopen; the record its words name (pending) takes only the status change, so it starts,
 * and the priority, needing nobody, runs in the same call. Seed: tkt_4 pending, low; tkt_7 closed.
 */
describe("the first of several asks, settled by the record its words name (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("both asks done in one call", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Put the change delivery address ticket back to open and bump it to high priority.",
      },
    });
    expect(sc(out), text(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect(text(out)).toMatch(/also done: "bump it to high priority" → change_ticket_priority/);
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ status: "open", priority: "high" });
  });

  it("a record the first ask's best cannot take keeps the tie, saying what it can take; nothing runs", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Put the invoice copy ticket back to open and make it urgent" },
    });
    expect(sc(out).reason).toBe("ambiguous_intent");
    expect(text(out)).toMatch(/On tkt_7 now: .*reopen_ticket can/);
    expect(await legacyJson(w.legacy, "tickets/tkt_7")).toMatchObject({ status: "closed", priority: "low" });
  });
});
