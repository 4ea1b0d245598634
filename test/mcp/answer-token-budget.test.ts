import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * o200k tokens of the text a host shows the model, counted as `npm run bench` counts them — with
 * what differs from run to run held still: a random action id costs 9–16 tokens depending on its
 * letters and the server's port 1–3, so a CI run once measured 401 where this machine measured 393.
 * Each is replaced by one fixed value of the same shape before counting.
 */
const tokens = (s: string) =>
  encode(
    s
      .replace(/\b[a-z0-9]{24}\b/g, "ycbannku5mbr9fnejotmhzr2")
      .replace(/http:\/\/(?:localhost|127\.0\.0\.1):\d+/g, "http://localhost:3000"),
  ).length;

/**
 * Issue 23: with a model as the agent, Signpost must read at most half the tokens the
 * one-tool-per-operation wrapper reads. Representative answers have budgets a little over what
 * they cost once what repeated itself was cut (ids on every next line, version stamps, one line
 * per item field, each listing row's id twice): an answer that grows back fails here. Measured
 * before → after that cut: start 246 → 229, summary 474 → 389, listing 479 → 371, record page
 * 563 → 549, empty search 62 (already one line; issue 23 then made it say what it read). Real MCP client over HTTP, real gateway and
 * legacy service.
 */
describe("what representative answers cost a model (o200k tokens)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a checkout started by the user's words, and the summary the user approves", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({
      name: "start_action",
      arguments: {
        intent: "Buy everything in my cart. Ship it to my office and pay from my account balance.",
      },
    });
    const s = sc(started);
    const first = text(started);
    // The id once, on the facts line; each next call names its arguments.
    expect(first.split(String(s.action_id)).length - 1).toBe(1);
    expect(first).toMatch(/^- advance_action \{action_id, version\} — /m);
    expect(tokens(first)).toBeLessThanOrEqual(240);

    const ready = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: s.action_id,
        version: s.version,
        patch: { shipping_method: "standard", payment_type: "balance" },
      },
    });
    const summary = text(ready);
    expect(summary).toMatch(/^awaiting_approval: /);
    // Each line item on one line, every value kept.
    expect(summary).toMatch(
      /- #1: Product: prod_mug · Item: Signpost Mug · Quantity: 2 · Unit price: \$18\.00/,
    );
    expect(tokens(summary)).toBeLessThanOrEqual(400);
  });

  it("a listing of records and one record's page", async () => {
    const alice = await w.connect(w.keys.alice);
    const listing = text(await alice.callTool({ name: "search", arguments: { query: "my orders" } }));
    // Each row's id once, the page every row opens at said once.
    expect(listing).toContain("| `ord_paid` |");
    expect(listing).toContain("Each row's page: `shop://order/{id}`");
    // 454 since each row says what the order holds (rounds 26 and 28: "my lamp order", "the
    // kettle order" cost a model three reads of single orders each); 390 before. 516 since one
    // line names the fields the rows hold beyond the table (?columns=; issue 23's model opened
    // orders one by one for payment and coupon) and an unpaid row says what is due: one line.
    // 557 since stop 42's merge (form lines beside links, the words' time column): measured, not cut.
    expect(tokens(listing)).toBeLessThanOrEqual(560);
    const record = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
    );
    expect(record).toContain("ord_paid");
    // 564 since each false item flag carries its reason (why_not, items_why_not: flags23); 575
    // since the payment names the method that paid by its label ("paid with: Visa •••• 4242"); 585
    // since a line's reason names the flag it explains ("exchangeable: product not exchangeable").
    // 632 since stop 42's form lines: each form's fields beside its link (a submit needs no
    // navigate of the form first: one call less per change).
    expect(tokens(record)).toBeLessThanOrEqual(635);
  });

  it("a search that finds nothing is a line, not a list of pages", async () => {
    const sam = await w.connect(w.keys.sam);
    // Issue 23: the empty answer now says what it read and names a small kind's records (each
    // helper playing the agent otherwise listed all tickets "to be sure": a listing of ~370
    // tokens and a round trip). Measured before → after: "login problem ticket" 62 → 130,
    // "login problem" 79 → 246 (nine tickets and ten products named, and the capability line).
    const empty = text(await sam.callTool({ name: "search", arguments: { query: "login problem ticket" } }));
    expect(empty).toMatch(/No ticket matches .* in all 9 tickets you can see/);
    expect(tokens(empty)).toBeLessThanOrEqual(140);
    const bare = text(await sam.callTool({ name: "search", arguments: { query: "login problem" } }));
    expect(bare).toMatch(/^- all 9 tickets you can see/m);
    // 283 since stop 42's merge (the search's best form carries its fields): measured, not cut.
    expect(tokens(bare)).toBeLessThanOrEqual(285);
    // A search that finds records is as it was (55 tokens).
    const found = text(await sam.callTool({ name: "search", arguments: { query: "headphones" } }));
    expect(found).toContain("tkt_2");
    expect(tokens(found)).toBeLessThanOrEqual(60);
  });
});
