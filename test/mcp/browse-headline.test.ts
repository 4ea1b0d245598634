import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set AV (played, elicitation host): a browse submit left with an admin answered "**applied:**
 * Move ticket to team is ready; an admin must approve it"; the model was unsure whether anything
 * had happened. Every face heads an answer with the same word: `awaiting_approval` here.
 */
describe("a browse answer's first word is the action face's (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a submit left with a person says awaiting_approval, never applied", async () => {
    const c = await w.connect(w.keys.sam);
    const out = await c.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_2/team",
        fields: { team_id: "billing", user_words: "Move the where are my headphones ticket to billing." },
      },
    });
    const t = text(out);
    expect(t).toMatch(/\*\*awaiting_approval:\*\* Move ticket to team is ready/);
    expect(t).not.toMatch(/\*\*applied:\*\*/);
  });
});
