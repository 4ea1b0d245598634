import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 57b: an ask that ran beside a first change kept its key (its own words and record) for
 * the server's window, so another request sharing the ask ("…, and make it urgent") a few minutes
 * later answered "also done … nothing ran twice" though the priority had been set back between.
 * Another ask's key is its whole request's: only a resend of the same request is a replay.
 * Seed: tkt_4 pending, low.
 */
describe("another ask's key is its whole request's (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a later request sharing an ask runs it again", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const start = (intent: string) => sam.callTool({ name: "start_action", arguments: { intent } });
    const first = await start("Set the change delivery address ticket to open and make it urgent.");
    expect(text(first)).toMatch(/also done: "make it urgent"/);
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ status: "open", priority: "urgent" });
    // Set back by another path between the two requests.
    const back = await sam.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_4", patch: { priority: "low" } },
    });
    const confirmed = await sam.callTool({
      name: "confirm_action",
      arguments: {
        action_id: sc(back).action_id,
        version: sc(back).version,
        idempotency_key: "set-back-low",
      },
    });
    expect(sc(confirmed).status, text(confirmed)).toBe("completed");
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({ priority: "low" });
    const second = await start("Set the change delivery address ticket to pending and make it urgent.");
    expect(text(second)).not.toMatch(/nothing ran twice/);
    expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({
      status: "pending",
      priority: "urgent",
    });
  });
});
