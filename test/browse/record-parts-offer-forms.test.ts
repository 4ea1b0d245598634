import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HELPDESK_ROUTES } from "@/server/connectors/helpdesk/helpdesk-routes";
import { SHOP_ROUTES } from "@/server/connectors/shop/shop-routes";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/** A record of each kind the demo's record pages are about, one its forms apply to now. */
const SAMPLE: Record<string, string> = { order: "ord_pending", product: "prod_mug", ticket: "tkt_3" };

/**
 * Issue 23: "post an internal note on the refund ticket" — the model read the ticket's comments
 * page, found no way to add one, and spent two calls (search_capabilities, then the start) on
 * what the page is about. A page about part of a record now ends with the form that adds to it
 * (its fields and the start_action it stands for), as the record's page offers its forms; and
 * every record page and part page of the demo connectors offers the changes possible on it (an
 * imported listing under a record offers its API's forms: related-links.ts). Real MCP client
 * over HTTP, the gateway and the legacy service.
 */
describe("a record's page and its parts' pages offer the changes possible on them", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the comments page offers the comment form with its fields, and a submit from that line adds the note", async () => {
    const sam = await w.connect(w.keys.sam);
    const page = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_3/comments" } }),
    );
    expect(page).toMatch(
      /^## Actions\n\n- \[comment_ticket\]\(helpdesk:\/\/ticket\/tkt_3\/comment\) `body\* · internal: boolean, default false: the customer sees it` · no approval\nSubmit a line's form \(\* required\) with user_words/m,
    );
    // Measured: 86 tokens before, 166 with the form's line and the line saying how to read it
    // (the two calls it saves, search_capabilities and its answer, cost more than that).
    expect(encode(page).length).toBeLessThanOrEqual(170);
    const out = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_3/comment",
        fields: {
          body: "Checked with the warehouse: refund approved.",
          internal: true,
          user_words:
            "Post an internal note on the kettle refund ticket: checked with the warehouse, refund approved.",
        },
      },
    });
    expect(sc(out).outcome).toBe("applied");
    const after = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_3/comments" } }),
    );
    expect(after).toMatch(/\| staff only \| Checked with the warehouse: refund approved\. \|/);
  });

  it("every record page and part page that is not itself a form ends with its forms", async () => {
    const sam = await w.connect(w.keys.sam);
    const alice = await w.connect(w.keys.alice);
    const pages = [...SHOP_ROUTES, ...HELPDESK_ROUTES].filter((r) => r.pattern.includes("{") && !r.submit);
    expect(pages.map((r) => r.pattern).sort()).toEqual([
      "helpdesk://ticket/{id}",
      "helpdesk://ticket/{id}/comments",
      "shop://order/{id}",
      "shop://product/{id}",
    ]);
    for (const route of pages) {
      const kind = route.pattern.split("://")[1]?.split("/")[0] ?? "";
      const uri = route.pattern.replace("{id}", SAMPLE[kind] ?? "");
      const who = route.pattern.startsWith("helpdesk") ? sam : alice;
      const page = text(await who.callTool({ name: "navigate", arguments: { uri } }));
      // A form's line carries its fields (a plain link, "All products", is no change).
      expect(page, uri).toMatch(/^## Actions\n\n(- .*\n)*- \[[^\]]+\]\([a-z]+:\/\/[^)]+\) (— )?`/m);
    }
  });

  it("a part page offers only what applies now: its record's view decides", async () => {
    const sam = await w.connect(w.keys.sam);
    // A closed ticket still takes a comment (the customer may be told something), nothing else.
    const closed = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_7/comments" } }),
    );
    expect(closed.match(/^- \[/gm)).toHaveLength(1);
    expect(closed).toContain("(helpdesk://ticket/tkt_7/comment)");
    // A ticket the caller may not read offers nothing: the page is the refusal.
    const alice = await w.connect(w.keys.alice);
    const refused = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_3/comments" } }),
    );
    expect(refused).not.toContain("## Actions");
  });
});
