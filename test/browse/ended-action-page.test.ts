import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_HEADING } from "@/mcp/agent-news";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Issue 23, set H: after the person approved a checkout and a refund, the model read the action's
 * page to tell the user the outcome, 760 and 827 tokens each: the choices it had picked from (every
 * address, shipping method and payment method), the step names and a link to the page itself. An
 * ended action's page says what was done, the verification and who approved; nothing to choose.
 * Real MCP client over HTTP, gateway and legacy.
 */
describe("an ended action's page says what happened, not what could have been chosen (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("an approved checkout, read afterwards: done, verified, approved by whom; no choices, no form", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const submitted = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://checkout",
        fields: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "express",
          payment_type: "card",
        },
      },
    });
    const actionId = /actions\\?:\/\/([a-z0-9]+)/.exec(text(submitted))?.[1] ?? "";
    const version = Number(/version (\d+)/.exec(text(submitted))?.[1]);
    const approved = await w.gw.decideApproval(w.person.alice, {
      action_id: actionId,
      version,
      decision: "approve",
    });
    expect(approved, JSON.stringify(approved).slice(0, 400)).toMatchObject({ outcome: "applied" });
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: `actions://${actionId}` } }),
    );
    expect(page).toMatch(/^checkout · completed · version \d+$/m);
    expect(page).toContain("## Summary");
    expect(page).toContain("## Approval");
    expect(page).not.toContain("## Choices");
    expect(page).not.toContain("## Form");
    expect(page).not.toContain("**Node:**");
    expect(page).not.toContain("[This action]");
    // Declared internal (version stamps): sent, decided by nobody, not in an agent's text.
    expect(page).not.toMatch(/version:\*\* \d{4}-/i);
    // Its own page already says how it ended: no news block repeating it (299 tokens, was 760).
    expect(page).not.toContain(NEWS_HEADING);
    expect(encode(page).length).toBeLessThan(350);
  });
});
