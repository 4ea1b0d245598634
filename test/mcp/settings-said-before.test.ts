import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Comment = { body: string; internal: boolean };

/**
 * Issue 23, played: "Add an internal note to the charged-twice ticket" — the model dry-ran first
 * because nothing said beforehand whether "internal note" would be taken from its words. The
 * search entry says which words set a field that decides who sees data, and its default; a start
 * by words runs a change nobody approves at once only when the words name that field's value;
 * words that name none ("a note") or two are held for the agent to ask.
 */
describe("fields that decide who sees data are said before the start (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const comments = async (id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { data: Comment[] }
    ).data.filter((c) => c.body.startsWith("Checked with the bank"));

  it("the search entry states the words that set internal and what its default means, in one line", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "search_capabilities",
      arguments: { query: "Add an internal note to the charged-twice ticket" },
    });
    const line = text(out)
      .split("\n")
      .find((l) => l.includes("`comment_ticket`"));
    expect(line).toContain(
      'internal: from words ("internal note" = true, "reply to the customer" = false), else asked; default false = the customer sees it',
    );
  });

  // Set CW (played): the after-sales entry read `"undefined" = return_refund … default undefined
  // = the one path open`: values with hints only, and a field with no default.
  it("a field with no default, and values named by hints only, say nothing undefined", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "search_capabilities",
      arguments: { query: "I want a refund for my delivered order" },
    });
    const line = text(out)
      .split("\n")
      .find((l) => l.includes("`after_sales`"));
    expect(line).toContain(
      'kind: from words ("refund only" = refund_only); else the one path open, else asked',
    );
    expect(text(out)).not.toMatch(/undefined/);
  });

  it("'Add an internal note …' runs at once as internal, as the entry said", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Add an internal note to tkt_3: 'Checked with the bank, only one charge settled.'",
      },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "completed", from_words: { internal: "true" } });
    expect(await comments("tkt_3")).toEqual([expect.objectContaining({ internal: true })]);
  });

  it("'Reply to the customer on …' names the default's value: it runs at once, shown to the customer", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Reply to the customer on tkt_3: 'Checked with the bank, only one charge settled.'",
      },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "completed", from_words: { internal: "false" } });
    expect(await comments("tkt_3")).toEqual([expect.objectContaining({ internal: false })]);
  });

  it("'Add a note …' names neither: nothing runs, the answer asks who sees it", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Add a note to tkt_3: 'Checked with the bank, only one charge settled.'" },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "open", defaulted: { internal: {} } });
    expect(text(out)).toContain("internal is a default the user did not choose");
    expect(await comments("tkt_3")).toEqual([]);
  });

  it("words naming both values take neither: nothing runs", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Add an internal note to tkt_3 for the customer: 'Checked with the bank, only one charge settled.'",
      },
    });
    expect(sc(out).status, text(out)).toBe("open");
    expect(sc(out).from_words).not.toHaveProperty("internal");
    expect(await comments("tkt_3")).toEqual([]);
  });
});
