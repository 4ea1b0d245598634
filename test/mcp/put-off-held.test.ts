import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Reviews 56 and 57b: words that put a change off or make it a maybe ran a change that needs
 * nobody's approval at once: "Remind me to make the headphones ticket urgent", "Make the
 * headphones ticket urgent tomorrow", "Maybe make the headphones ticket urgent". Each is held for
 * the user's word (confirm_action), as a condition is; a past time describes and runs.
 * Seed: tkt_2 open, normal.
 */
describe("a change put off or hedged waits for the user's word (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });

  for (const intent of [
    "Remind me to make the headphones ticket urgent.",
    "Make the headphones ticket urgent tomorrow.",
    "Make the headphones ticket urgent next week",
    "Maybe make the headphones ticket urgent.",
  ])
    it(intent, async () => {
      const out = await start(intent);
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(text(out)).toMatch(/not run yet: the words make it depend on something/);
      expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "normal" });
    });

  it("a change asked now still runs, past times describing", async () => {
    const out = await start("Make the headphones ticket I looked at yesterday urgent.");
    expect(sc(out).status, text(out)).toBe("completed");
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "urgent" });
  });
});
