import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A start that stops at the record choice names the required fields of the later steps, so an
 * agent sends the record and what it already knows in one advance and reaches the summary.
 * Real MCP client, gateway, database and legacy service.
 */
describe("later steps' fields said up front (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the record choice names the later required fields, and one advance with both reaches the summary", async () => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({
      name: "start_action",
      // Words that name no one order ("not shipped" now names the one paid order: records-negated).
      arguments: { intent: "I want a refund on one of my orders" },
    });
    const out = sc(started);
    // The record field is missing (or, where words narrowed the orders, to fix).
    const recordField = String(
      (out.missing as string[])[0] ?? (out.validation_errors as Array<{ field: string }>)[0]?.field,
    );
    expect(out).toMatchObject({ outcome: "input_required", status: "open" });
    const later = out.later as Record<string, string>;
    // A field of a later step, with its note: the free text says whose words go there.
    expect(later).toBeDefined();
    expect(Object.keys(later)).not.toContain(recordField);
    const freeText = Object.entries(later).find(([, note]) => /free text/.test(note));
    expect(freeText).toBeDefined();
    const laterLine = text(started)
      .split("\n")
      .find((l) => l.startsWith("later"));
    expect(laterLine).toMatch(new RegExp(`${freeText?.[0]} \\(free text`));
    // One compact line, not a section per field.
    expect(laterLine?.length).toBeLessThan(300);

    // The record and the later step's field in one advance: applied in node order, to the summary.
    const rows = (out.options as { orders: Array<{ id: string; possible: string }> }).orders;
    const record = rows.find((r) => r.possible === "refund_only")?.id;
    const advanced = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: out.action_id,
          version: out.version,
          patch: { [recordField]: record, [String(freeText?.[0])]: "I changed my mind" },
        },
      }),
    );
    expect(advanced.missing).toEqual([]);
    expect(advanced.validation_errors).toEqual([]);
    expect(advanced.requires_confirmation).toBe(true);
    expect(advanced.summary).toBeTruthy();
    expect(advanced.later).toBeUndefined();
    // At the person's approval, which carries it out (this host lists no confirm: approval-next-steps.ts).
    expect(advanced.status).toBe("awaiting_approval");
  });
});
