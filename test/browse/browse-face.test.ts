import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approvalCarries } from "@/server/connectors/sdk/approval-next-steps";
import { escapeText } from "@/server/connectors/sdk/markdown";
import { idem } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

interface Page {
  markdown: string;
  uri: string;
  title: string;
  outcome: string;
  links: string[];
}

async function page(
  client: Client,
  tool: "search" | "navigate" | "submit",
  args: Record<string, unknown>,
): Promise<Page> {
  const result = await client.callTool({ name: tool, arguments: args });
  expect(result.isError ?? false, text(result)).toBe(false);
  const structured = sc(result) as unknown as Omit<Page, "markdown">;
  return { ...structured, markdown: text(result) };
}

function actionIdOf(p: Page): string {
  const match = /actions\\?:\/\/([A-Za-z0-9_-]+)/.exec(p.markdown);
  if (!match?.[1]) throw new Error(`no action link in\n${p.markdown}`);
  return match[1];
}

describe("browse face: search → navigate → form → submit over MCP", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("search knows the URI structure and the data: 'orders', 'Acme', a product, 'tickets assigned to me'", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const orders = await page(alice, "search", { query: "orders" });
    expect(orders.links[0]).toBe("shop://orders");
    expect(orders.links).toContain("shop://order/ord_paid");
    const acme = await page(alice, "search", { query: "Acme" });
    expect(acme.outcome).toBe("applied");
    expect(acme.markdown).toMatch(/Acme/);
    const mug = await page(alice, "search", { query: "mug", scheme: "shop" });
    expect(mug.links).toContain("shop://product/prod_mug");
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const mine = await page(sam, "search", { query: "tickets assigned to me" });
    expect(mine.links).toContain("helpdesk://tickets?mine=1");
  });

  it("words that name exactly one page get its content with the search answer: 'list my orders' is one call", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = await page(alice, "search", { query: "list my orders" });
    expect(found.outcome).toBe("applied");
    expect(found.markdown).toMatch(/^## \[Orders\]\(shop:\/\/orders\) \(opened here\)$/m);
    expect(found.links[0]).toBe("shop://orders");
    // Listed once: the opened page is not in the page list again.
    expect(found.markdown.match(/\]\(shop:\/\/orders\)/g)).toHaveLength(1);
    // The rows themselves, with their links, as navigate shows them; bounded.
    for (const id of ["ord_paid", "ord_transit", "ord_pending"]) expect(found.markdown).toContain(id);
    expect(found.links).toContain("shop://order/ord_paid");
    expect(found.markdown.length).toBeLessThan(3_600);
    // Opened as navigate opens it: the same permission check, and an audit row of its own.
    const rows = await w.db.auditEvent.findMany({
      where: { operation: "browse.navigated", target: "shop://orders" },
    });
    expect(rows.length).toBeGreaterThan(0);
    // Words naming a record, not a page, open no record page: at most the listing they name
    // clearly (where a ticket about logins would be), never a guessed ticket.
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const login = await page(sam, "search", { query: "the login ticket" });
    expect(login.markdown).not.toMatch(/^## \[(?!Tickets\])[^\]]*\]\([^)]*\) \(opened here\)$/m);
    expect(login.markdown).not.toMatch(/helpdesk:\/\/ticket\/[^)]*\) \(opened here\)/);
  });

  it("navigating to a record page is one audit row, the page's, with the decision that allowed it", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const before = await w.db.auditCounter.findUniqueOrThrow({ where: { tenantId: "acme" } });
    const shown = await page(alice, "navigate", { uri: "shop://order/ord_paid" });
    expect(shown.outcome).toBe("applied");
    // The page's own read of the record (get_context, allowed and answered) is recorded by the
    // page's row: one call, one row, which names the page, the outcome and the rule that decided.
    const rows = await w.db.auditEvent.findMany({ where: { tenantId: "acme", seq: { gt: before.seq } } });
    expect(rows.map((r) => [r.operation, r.target, r.outcome])).toEqual([
      ["browse.navigated", "shop://order/ord_paid", "applied"],
    ]);
    expect(rows[0]?.decision).toMatch(/^allow/);
  });

  it("a search that names a record opens it as navigate does: its row, then the search's", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const before = { seq: (await w.db.auditCounter.findUnique({ where: { tenantId: "acme" } }))?.seq ?? 0 };
    await page(alice, "search", { query: "ord_paid" });
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", seq: { gt: before.seq } },
      orderBy: { seq: "asc" },
    });
    const ops = rows.map((r) => `${r.operation} ${r.target ?? ""}`);
    // The page's read is folded into navigate's row, as when the agent navigates itself.
    expect(ops).toEqual([
      "browse.navigated shop://order/ord_paid",
      expect.stringMatching(/^browse\.searched/),
    ]);
    // And a navigate after it on the same session is still one row.
    const after = rows.at(-1)?.seq ?? before.seq;
    await page(alice, "navigate", { uri: "shop://order/ord_paid" });
    const navigated = await w.db.auditEvent.findMany({ where: { tenantId: "acme", seq: { gt: after } } });
    expect(navigated.map((r) => r.operation)).toEqual(["browse.navigated"]);
  });

  it("search links a quoted id only when that record exists for the caller", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    expect((await page(alice, "search", { query: "ord_paid" })).links).toContain("shop://order/ord_paid");
    // Shaped like an id, but no such order: no link to a page that would say not found.
    expect((await page(alice, "search", { query: "ord_nope" })).links).not.toContain("shop://order/ord_nope");
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    expect((await page(sam, "search", { query: "tkt_1" })).links).toContain("helpdesk://ticket/tkt_1");
    // Another tenant's order is no more there than a made-up one.
    const gina = await w.connect(w.keys.gina, { faces: "browse" });
    expect((await page(gina, "search", { query: "ord_paid" })).links).not.toContain("shop://order/ord_paid");
  });

  it("checkout: the same flow as the action face — form, submit to the confirmation, approval, confirm, verify — with the same audit rows", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = await page(alice, "search", { query: "buy" });
    expect(found.links).toContain("shop://checkout");
    const form = await page(alice, "navigate", { uri: "shop://checkout" });
    expect(form.markdown).toContain("uri: shop://checkout");
    expect(form.markdown).toMatch(/payment_type: "" {2}# required — /);
    // Its price is the user's to choose: the form asks for it, as the action does.
    expect(form.markdown).toMatch(/shipping_method: "" {2}# required — /);

    const submitted = await page(alice, "submit", {
      uri: "shop://checkout",
      fields: {
        items: [{ product_id: "prod_mug", quantity: 2 }],
        address_id: "Office",
        shipping_method: "standard",
        payment_type: "balance",
      },
    });
    expect(submitted.markdown).toContain("CONFIRM_ORDER");
    expect(submitted.markdown).toMatch(/a person must approve version 1/i);
    expect(submitted.markdown).toMatch(/http:\/\/localhost:3000\/confirm\//);
    const actionId = actionIdOf(submitted);
    // The person's approval at the link carries it out (issue 23): said in the action face's
    // words, from the one place both faces take them, and no confirm is offered to the agent.
    expect(submitted.markdown).toContain(escapeText(approvalCarries(`navigate actions://${actionId}`)));
    expect(submitted.markdown).not.toMatch(/confirm_action|Confirm \\\(form\\\)/);

    // Before approval the confirm form is refused with the reason.
    const early = await page(alice, "submit", {
      uri: `actions://${actionId}/confirm`,
      fields: { idempotency_key: idem() },
    });
    expect(early.outcome).toBe("rejected");
    expect(early.markdown).toMatch(/approv/i);

    // The person approves in the console.
    expect(
      (await w.gw.decideApproval(w.person.alice, { action_id: actionId, version: 1, decision: "approve" }))
        .outcome,
    ).toBe("applied");
    const confirmed = await page(alice, "submit", {
      uri: `actions://${actionId}/confirm`,
      fields: { idempotency_key: idem() },
    });
    expect(confirmed.outcome).toBe("applied");
    // Verified with the system of record by the confirm itself; the verify page says the same.
    expect(confirmed.markdown).toMatch(/verified/i);
    const verified = await page(alice, "navigate", { uri: `actions://${actionId}/verify` });
    expect(verified.outcome).toBe("applied");
    expect(verified.markdown).toMatch(/\$41\.00/);

    const audit = await w.db.auditEvent.findMany({ where: { actionId }, orderBy: { seq: "asc" } });
    const ops = audit.map((a) => a.operation);
    expect(ops).toEqual(
      expect.arrayContaining(["action.started", "approval.approved", "action.confirmed", "action.verified"]),
    );
    expect(audit.find((a) => a.operation === "action.started")?.face).toBe("browse");
    const browseRows = await w.db.auditEvent.findMany({
      where: { face: "browse", operation: { startsWith: "browse." } },
    });
    expect(browseRows.map((r) => r.operation)).toEqual(
      expect.arrayContaining(["browse.searched", "browse.navigated", "browse.submitted"]),
    );
  });

  it("an in-transit order offers no refund-only link and says why; a paid order's after-sales form submits to the confirmation", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const transit = await page(alice, "navigate", { uri: "shop://order/ord_transit" });
    expect(transit.links).not.toContain("shop://order/ord_transit/after-sales");
    // Why not, in words (the reason's code only where no message says it: issue 23).
    expect(transit.markdown).toMatch(
      /refund only:\*\* no — The order is in transit: refund-only is only possible before shipment/,
    );
    expect(transit.links).toContain("shop://order/ord_transit/tracking");

    const paid = await page(alice, "navigate", { uri: "shop://order/ord_paid" });
    expect(paid.links).toContain("shop://order/ord_paid/after-sales");
    const form = await page(alice, "navigate", { uri: "shop://order/ord_paid/after-sales" });
    expect(form.outcome).toBe("preview");
    expect(form.markdown).toMatch(/reason: "" {2}# required — string/);
    const done = await page(alice, "submit", {
      uri: "shop://order/ord_paid/after-sales",
      fields: { reason: "changed my mind" },
    });
    expect(done.markdown).toContain("awaiting_approval");
    // The kind the paid order allows, as the brief summary names it for the person (issue 23).
    expect(done.markdown).toMatch(/What:\*\* Refund without a return/);

    // The form on an in-transit order explains the refusal instead of offering refund-only; no
    // field could change it, so no form invites the same submit again (set CW).
    const refused = await page(alice, "submit", {
      uri: "shop://order/ord_transit/after-sales",
      fields: { kind: "refund_only", reason: "too slow" },
    });
    expect(refused.outcome).toBe("rejected");
    expect(refused.markdown).toMatch(/before shipment/);
    expect(refused.markdown).not.toContain("```yaml");
  });

  it("a helpdesk assignment across teams waits for approval (support agent)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const ticket = await page(sam, "navigate", { uri: "helpdesk://ticket/tkt_1" });
    expect(ticket.links).toContain("helpdesk://ticket/tkt_1/assign");
    const form = await page(sam, "navigate", { uri: "helpdesk://ticket/tkt_1/assign" });
    expect(form.markdown).toContain("`tm_sid`");
    const submitted = await page(sam, "submit", {
      uri: "helpdesk://ticket/tkt_1/assign",
      fields: { assignee_id: "tm_sid" },
    });
    expect(submitted.markdown).toContain("awaiting_approval");
    expect(submitted.markdown).toMatch(/Across teams:\*\* yes/);
    const bad = await page(sam, "submit", {
      uri: "helpdesk://ticket/tkt_1/assign",
      fields: { assignee_id: "tm_nobody" },
    });
    expect(bad.markdown).toMatch(/### Problems/);
  });

  it("unknown, malformed and traversal URIs get a not-found page with start links, never an exception", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    for (const uri of [
      "shop://../etc/passwd",
      "shop://order/../../admin",
      "shop://order/%2e%2e/x",
      "shop://order/ord_paid%2Fafter-sales",
      "file:///etc/passwd",
      "https://evil.example.com/",
      "shop:/orders",
      "shop://order\\ord_paid",
      "shop://nowhere",
      "shop://order/ord_paid/after-sales/extra",
    ]) {
      const p = await page(alice, "navigate", { uri });
      expect(p.outcome, uri).toBe("not_found");
      expect(p.links, uri).toContain("shop://orders");
    }
    const sub = await page(alice, "submit", { uri: "shop://order/..", fields: {} });
    expect(sub.outcome).toBe("not_found");
  });

  it("another tenant's URI is not found", async () => {
    const gina = await w.connect(w.keys.gina, { faces: "browse" });
    const p = await page(gina, "navigate", { uri: "shop://order/ord_paid" });
    expect(p.outcome).toBe("not_found");
    expect(p.markdown).not.toContain("Desk Lamp");
    const form = await page(gina, "submit", {
      uri: "shop://order/ord_paid/after-sales",
      fields: { reason: "mine now" },
    });
    expect(form, JSON.stringify(form)).toMatchObject({ outcome: "not_found" });
    expect(form.markdown).not.toContain("Desk Lamp");
  });

  it("config pages show whether a secret is set, never its value; no agent sets one, an admin's included", async () => {
    const adam = await w.connect(w.keys.adam, { faces: "browse" });
    const config = await page(adam, "navigate", { uri: "config://shop" });
    expect(config.markdown).toMatch(/\| api_key \| set \|/);
    expect(config.markdown).not.toContain(w.legacy.apiKeys.acme);
    // No form: the page sends the person to the console.
    expect(config.markdown).not.toMatch(/```form/);
    expect(config.markdown).toContain("http://localhost:3000/config");
    // To a member the page does not exist (see browse-refusals.test.ts for the rest).
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const denied = await page(alice, "submit", {
      uri: "config://shop",
      fields: { name: "api_key", value: "lk_stolen_value_123456" },
    });
    expect(denied.outcome).toBe("not_found");

    // An admin's agent is refused too: a secret given to an agent has been through its model.
    const before = await w.db.secret.findFirstOrThrow({
      where: { tenantId: "acme", connector: "shop", name: "api_key" },
    });
    const refused = await adam.callTool({
      name: "submit",
      arguments: { uri: "config://shop", fields: { name: "api_key", value: "lk_agent_chosen_key_123456" } },
    });
    expect(sc(refused)).toMatchObject({ outcome: "rejected" });
    expect(text(refused)).toMatch(
      /Secrets are set by an admin in the console \(http:\/\/localhost:3000\/config\), never through an agent/,
    );
    expect(text(refused)).not.toContain("lk_agent_chosen_key_123456");
    const after = await w.db.secret.findFirstOrThrow({
      where: { tenantId: "acme", connector: "shop", name: "api_key" },
    });
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(await w.db.auditEvent.count({ where: { tenantId: "acme", operation: "secret.replaced" } })).toBe(
      0,
    );
    const rows = await w.db.auditEvent.findMany({ where: { tenantId: "acme" } });
    expect(JSON.stringify(rows)).not.toContain(w.legacy.apiKeys.acme);
    expect(JSON.stringify(rows)).not.toContain("lk_stolen_value_123456");
    expect(JSON.stringify(rows)).not.toContain("lk_agent_chosen_key_123456");
    // Pages keep working with the key the person set.
    expect((await page(adam, "navigate", { uri: "shop://orders" })).outcome).toBe("applied");
  });

  it("a permission-denied page says what was denied and links to a request form that reaches an admin", async () => {
    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "alice@acme.test" } },
    });
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: agent.id,
        verb: "navigate",
        pattern: "shop://orders",
        decision: "deny",
        position: 0,
      },
    });
    try {
      const alice = await w.connect(w.keys.alice, { faces: "browse" });
      const denied = await page(alice, "navigate", { uri: "shop://orders" });
      expect(denied.outcome).toBe("rejected");
      expect(denied.markdown).toMatch(/You may not navigate `shop:\/\/orders`/);
      const request = denied.links.find((l) => l.startsWith("signpost://permissions/request"));
      expect(request).toBeDefined();
      const form = await page(alice, "navigate", { uri: String(request) });
      expect(form.markdown).toContain('target: "shop://orders"');
      const sent = await page(alice, "submit", {
        uri: "signpost://permissions/request",
        fields: { verb: "navigate", target: "shop://orders", reason: "to answer the user" },
      });
      expect(sent.outcome).toBe("applied");
      const stored = await w.db.permissionRequest.findFirst({
        where: { agentId: agent.id, target: "shop://orders" },
      });
      expect(stored?.status).toBe("pending");
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
    }
  });

  it("lists paginate and pages are also MCP resources (one template per route)", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const templates = (await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual(
      expect.arrayContaining(["shop://order/{id}", "helpdesk://ticket/{id}", "actions://{action_id}"]),
    );
    const statics = (await alice.listResources()).resources.map((r) => r.uri);
    expect(statics).toEqual(expect.arrayContaining(["shop://orders", "shop://products"]));
    // Config pages are admin-only: a member's host is not even offered them as resources.
    expect([...statics, ...templates].filter((uri) => uri.startsWith("config://"))).toEqual([]);
    const adam = await w.connect(w.keys.adam, { faces: "browse" });
    expect((await adam.listResources()).resources.map((r) => r.uri)).toContain("config://connectors");
    expect((await adam.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain(
      "config://{connector}",
    );
    const read = await alice.readResource({ uri: "shop://order/ord_paid" });
    const first = read.contents[0] as { text?: string; mimeType?: string };
    expect(first.mimeType).toBe("text/markdown");
    expect(first.text).toContain("# Order ord_paid");
    const products = await page(alice, "navigate", { uri: "shop://products" });
    expect(products.markdown).toMatch(/Page 1 · \d+ in all/);
    const p1 = await page(alice, "navigate", { uri: "shop://products?per_page=4" });
    expect(p1.links, p1.markdown).toContain("shop://products?page=2&per_page=4");
    const second = await page(alice, "navigate", { uri: "shop://products?page=2&per_page=4" });
    expect(second.links).toContain("shop://products?page=1&per_page=4");
    expect(second.links).toContain("shop://products?page=3&per_page=4");
    expect(second.links.filter((l) => l.startsWith("shop://product/"))).not.toEqual(
      p1.links.filter((l) => l.startsWith("shop://product/")),
    );
  });
});
