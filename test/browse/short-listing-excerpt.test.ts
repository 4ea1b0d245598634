import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseBrowseUri } from "@/server/connectors/sdk/parse-browse-uri";
import { listPage } from "@/server/connectors/sdk/route-pages";
import { row } from "../helpers/table-row";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

const header = (markdown: string) => markdown.split("\n").find((l) => l.startsWith("| id |")) ?? "";

/**
 * Issue 23: "Which tickets are pending, and what are they about?" — the listing showed subjects
 * only, and the model listed them again with `?columns=description`. A listing declares the
 * field holding its rows' own words (`mainText`); when it shows five rows or fewer, the start of
 * that text stands beside each title. A longer listing stays as it was (its budget in
 * answer-token-budget.test.ts holds): its "More columns" line still offers the text.
 */
describe("a short listing says what each row is about", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the pending tickets, and what they are about, in the one search", async () => {
    const sam = await w.connect(w.keys.sam);
    const found = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "Which tickets are pending, and what are they about?" },
      }),
    );
    expect(header(found)).toBe(
      "| id | subject | description | status | priority | assignee_id | team_id | created_at |",
    );
    expect(row(found, "tkt_3").description).toBe("The kettle is too loud, I want my money back.");
    expect(row(found, "tkt_4").description).toBe("Please send my kettle to my home instead.");
    // Shown, so not offered again.
    expect(found).not.toMatch(/More columns[^\n]*description/);
    // Measured before → after: 308 → 337 (two rows' sentences, and their assignees' names);
    // the three open tickets 248 → 284. The model's second listing cost ~330.
    // 360 since "pending" also names the form that sets a ticket pending (set_ticket_status):
    // its other-pages line carries the form's field.
    expect(encode(found).length).toBeLessThanOrEqual(360);
  });

  it("a listing of more than five rows shows no excerpt, and offers the text as a column", async () => {
    const sam = await w.connect(w.keys.sam);
    const all = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }));
    expect(header(all)).not.toContain("description");
    expect(all).toMatch(/^More columns \(`\?columns=description,requester_email`\)/m);
    // Asked for, the whole text is shown, as it was.
    const asked = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets?columns=description" } }),
    );
    expect(row(asked, "tkt_1").description).toBe("My card shows two charges for my lamp order.");
  });

  it("the excerpt is one line, cut at a word, escaped as data", () => {
    const uri = parseBrowseUri("demo://notes");
    if (!uri.ok) throw new Error("bad uri");
    const long = `First line\nof a [long](x://y) note ${"that goes on and on ".repeat(6)}`;
    const page = listPage(
      "Notes",
      uri.value,
      { data: [{ id: "n_1", title: "Long", body: long }], page: 1, next_page: null, total: 1 },
      ["id", "title"],
      (r) => `demo://note/${r.id}`,
      "Newest first",
      undefined,
      { mainText: "body" },
    );
    const cell = row(page.markdown, "n_1").body ?? "";
    expect(cell).toBe("First line of a \\[long\\]\\(x\\://y\\) note that goes on and on that goes on…");
    expect(cell.replace(/\\/g, "").length).toBeLessThanOrEqual(71);
    // Six rows: no excerpt.
    const six = listPage(
      "Notes",
      uri.value,
      {
        data: Array.from({ length: 6 }, (_, i) => ({ id: `n_${i}`, title: "t", body: "b" })),
        page: 1,
        next_page: null,
        total: 6,
      },
      ["id", "title"],
      (r) => `demo://note/${r.id}`,
      "Newest first",
      undefined,
      { mainText: "body" },
    );
    expect(header(six.markdown)).toBe("| id | title |");
  });
});
