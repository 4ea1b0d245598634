import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { NOTES_DOCUMENT, type NotesApi, startNotesApi } from "../helpers/notes-api";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Issue 23, round with Sam and Alice: a model opened every form (`navigate`) only to learn its
 * fields, then submitted it: two calls per change where one does; and a form it had not opened
 * was submitted without `user_words`, so a change the user had named waited for a confirm.
 * Every link to a form now carries its fields in one line (hand-written and imported connectors,
 * record pages and search answers), a submit needs no navigate first, and a submit that waits
 * because the words were missing says the one call that runs it. Real MCP client over HTTP,
 * real gateway, legacy service and an imported API.
 */
describe("links to forms carry their fields; a submit needs no navigate first (MCP over HTTP)", () => {
  let w: McpWorld;
  let api: NotesApi;
  beforeAll(async () => {
    [api, w] = await Promise.all([startNotesApi(), createMcpWorld("sqlite")]);
    const imported = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify(NOTES_DOCUMENT),
        id: "notes",
        baseUrl: api.url,
        readRoles: ["admin", "support"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    if (!imported.ok) throw new Error(`import failed: ${JSON.stringify(imported)}`);
  }, 90_000);
  afterAll(async () => {
    await w?.close();
    await api?.stop();
  });
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/${path}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as Record<string, unknown>;

  it("a ticket's page lists each form with its fields, user_words and the comment's default; its next steps once", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_3" } }),
    );
    expect(page).toContain(
      "- [change_ticket_priority](helpdesk://ticket/tkt_3/priority) `priority*: low/normal/high/urgent` · no approval\n",
    );
    expect(page).toContain(
      "(helpdesk://ticket/tkt_3/comment) `body* · internal: boolean, default false: the customer sees it` · no approval",
    );
    expect(page).toMatch(/\(helpdesk:\/\/ticket\/tkt_3\/assign\) `assignee_id\*` · approval: /);
    // Every form takes the user's words: said once, under the lines, with what they do.
    expect(page).not.toMatch(/^- .*user_words/m);
    expect(page).toMatch(
      // A browse-only caller is never pointed at start_action (review 68).
      /^Submit a line's form \(\* required\) with user_words: the user's request verbatim; it fills fields; it runs at once unless someone must approve\.$/m,
    );
    // The ticket the URI names is no field; each next step is said once, on its form's line.
    expect(page).not.toMatch(/ticket_id/);
    expect(page).not.toContain("Next (action face)");
  });

  it("an order's page lists the after-sales form's fields, its list fields typed", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_delivered" } }),
    );
    expect(page).toMatch(
      /\(shop:\/\/order\/ord_delivered\/after-sales\) `kind\*: refund_only\/return_refund\/exchange\/shipping_refund · reason\* · item_ids: array<string>/,
    );
    expect(page).not.toMatch(/order_id\*/);
    // A change a person always approves takes user_words too: they fill the fields they name.
    expect(page).toMatch(
      /^- \[after_sales\]\(shop:\/\/order\/ord_delivered\/after-sales\) `[^`]*` · approval: the user$/m,
    );
    expect(page).toMatch(/^Submit a line's form \(\* required\) with user_words/m);
  });

  it("a search's best form carries its fields once", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(await sam.callTool({ name: "search", arguments: { query: "close tkt_9" } }));
    expect(found).toContain(
      "`helpdesk://ticket/{id}/resolve` (Helpdesk) — Resolve ticket — `resolution* · user_words`",
    );
    expect(found.match(/resolution\*/g)).toHaveLength(1);
  });

  it("a submit straight from the line, in a session that never opened the form, runs the change the words name", async () => {
    const navigations = () =>
      w.db.auditEvent.count({ where: { tenantId: "acme", operation: { startsWith: "browse.navigate" } } });
    const before = await navigations();
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const out = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_1/comment",
        fields: {
          body: "Your refund is on its way.",
          // The line says what the default means; a reply to the customer sets it.
          internal: false,
          user_words: "Reply to the customer on tkt_1: 'Your refund is on its way.'",
        },
      },
    });
    expect(sc(out).outcome).toBe("applied");
    expect(text(out)).toMatch(/ · completed · version/);
    const comments = (await legacy("tickets/tkt_1/comments")) as unknown as {
      data?: Array<{ body: string; internal: boolean }>;
    };
    const list = Array.isArray(comments) ? comments : (comments.data ?? []);
    expect(list.some((c) => c.body === "Your refund is on its way." && c.internal === false)).toBe(true);
    // One call: no navigate of the form (nor of anything) before it.
    expect(await navigations()).toBe(before);
  });

  it("without user_words, where they decide: the one-call fix first, and that call runs it", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const waiting = text(
      await sam.callTool({
        name: "submit",
        arguments: { uri: "helpdesk://ticket/tkt_3/priority", fields: { priority: "high" } },
      }),
    );
    expect(waiting).toContain(
      "**Not run yet:** no `user_words` came with it. If the user's words name tkt_3, submit `helpdesk://ticket/tkt_3/priority` again with the same fields and `user_words`: their request, verbatim; it then runs at once and replaces this one.",
    );
    // No words came: the others are counted, not listed (set AI: a 500-token answer to a slip).
    expect(waiting).toMatch(
      /^Otherwise ask the user whether they mean tkt_3 \(\d+ other records would take this change too, at `helpdesk:\/\/tickets[^`]*`\); on their word, one call runs it: `confirm_action/m,
    );
    expect(waiting).not.toMatch(/^- tkt_\d/m);
    expect((await legacy("tickets/tkt_3")).priority).toBe("normal");
    const again = text(
      await sam.callTool({
        name: "submit",
        arguments: {
          uri: "helpdesk://ticket/tkt_3/priority",
          fields: { priority: "high", user_words: "Set the kettle refund ticket to high priority" },
        },
      }),
    );
    expect(again).toMatch(/ · completed · version/);
    expect((await legacy("tickets/tkt_3")).priority).toBe("high");
  });

  it("a submit that waits for the person's approval says what they approve, in brief: no choices, no form", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_delivered/after-sales",
          fields: { kind: "return_refund", reason: "It is too loud", item_ids: ["ord_delivered_item_1"] },
        },
      }),
    );
    expect(out).toMatch(/ · awaiting_approval · version \d/);
    expect(out).toMatch(/the user must approve it/);
    expect(out).toContain("**Refund Electric Kettle ×1 $150.00 to Visa •••• 4242**");
    // The amount is in the sentence above; the headline does not say it again.
    expect(out).not.toContain("Refund amount");
    expect(out).toMatch(
      /nothing to call now or after \\\(your next call once they decide brings the result; navigate actions\\:\/\/[a-z0-9]+ reads it sooner/,
    );
    expect(out).not.toContain("## Choices");
    expect(out).not.toContain("```yaml");
    // The person's screen shows each line's parts; the agent's answer says each line in a few
    // words (what, how many, its price), not part by part.
    expect(out).toMatch(/^ {2}- Electric Kettle ×1 · Unit price: \$150\.00$/m);
    expect(out).not.toContain("#1");
    expect(encode(out).length).toBeLessThan(500);
    // Read whole when asked for.
    const id = /actions\\?:\/\/([a-z0-9]+)/.exec(out)?.[1] ?? "";
    const whole = text(await alice.callTool({ name: "navigate", arguments: { uri: `actions://${id}` } }));
    expect(whole).toContain("Unit price");
  });

  it("an imported listing's forms carry their fields, and submit without a navigate first", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(await sam.callTool({ name: "navigate", arguments: { uri: "notes://notes" } }));
    expect(page).toMatch(/\(notes:\/\/notes\/create\) — `x_note_tag · text\*`/);
    const fresh = await w.connect(w.keys.sam, { faces: "browse" });
    const out = await fresh.callTool({
      name: "submit",
      arguments: { uri: "notes://notes/create", fields: { text: "from the line" } },
    });
    // Waits for a grant or a person; either way the form was taken as submitted, not refused for fields.
    expect(text(out)).not.toMatch(/Problems/);
  });
});
