import { randomBytes } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getAudit } from "@/app/api/console/audit/route";
import { GET as getStream } from "@/app/api/console/stream/route";
import { getActionDetail } from "@/server/gateway/console/list-actions";
import { hashSessionToken } from "@/server/gateway/console-session";
import type { PublishedAuditEvent } from "@/server/gateway/event-stream";
import { createMcpWorld, type McpWorld } from "./mcp-world";

/**
 * What an agent sends in clear never stays in clear: a card number in an argument and an API key
 * in a URI's query, sent through a real MCP client on both faces, appear in no tool result, no
 * stored audit row, no event published to the live monitor, and no answer of the console's audit
 * and stream routes (run unchanged, with a real session cookie).
 */

const jar = vi.hoisted(() => ({ token: "" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "sp_session" && jar.token ? { name, value: jar.token } : undefined),
  }),
}));

const CARD = "4111111111111111";
const CARD_SPACED = "4111 1111 1111 1111";
const STRIPE_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
/** Any of these anywhere in a JSON text is a leak. */
const LEAKS = [CARD, CARD_SPACED, "4111-1111", STRIPE_KEY, "sk_live_4eC39", "4eC39HqLyjWDarjtT1zdp7dc"];

function expectNoLeak(what: string, value: unknown): void {
  const json = JSON.stringify(value);
  for (const leak of LEAKS)
    expect(json.includes(leak), `${what} holds ${leak}: ${json.slice(0, 2000)}`).toBe(false);
}

describe("a card number and a key in a URI are redacted in answers, audit rows, the monitor and the console", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
    const token = randomBytes(24).toString("hex");
    await w.db.session.create({
      data: {
        tokenHash: hashSessionToken(token),
        userId: w.person.adam.userId,
        tenantId: "acme",
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    jar.token = token;
  });
  afterAll(async () => {
    (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
    await w?.close();
  });

  it("end to end through a real MCP client", async () => {
    const before = (
      await w.db.auditEvent.findFirst({ where: { tenantId: "acme" }, orderBy: { seq: "desc" } })
    )?.seq;
    const startedAt = new Date();
    const published: PublishedAuditEvent[] = [];
    const unsubscribe = w.gw.subscribe((e) => published.push(e));
    const uri = `shop://order/ord_paid?token=${STRIPE_KEY}`;

    const alice: Client = await w.connect(w.keys.alice);
    const results: Array<[string, unknown]> = [];
    const callTool = async (name: string, args: Record<string, unknown>) => {
      const result = await alice.callTool({ name, arguments: args });
      results.push([`${name} ${JSON.stringify(args).slice(0, 80)}`, result]);
      return result;
    };
    // The action face: a card number as an argument, by name and inside free text.
    await callTool("start_action", {
      capability: "checkout",
      patch: {
        items: [{ product_id: "prod_mug", quantity: 1 }],
        card_number: CARD,
        note: `charge ${CARD_SPACED} please`,
      },
    });
    await callTool("search_capabilities", { query: `pay with card ${CARD}` });
    // An id the agent made up is stored on the row as the action it asked about.
    await callTool("get_context", { action_id: STRIPE_KEY });
    // An action that is created: the card number in its free-text reason is stored for the engine.
    // (Its answer is not checked: the action face shows the summary the person will approve, the
    // agent's own words included; the audit row, the monitor and support's views are.)
    await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_paid",
        patch: { kind: "refund_only", reason: `charged twice on ${CARD_SPACED}` },
      },
    });
    // The browse face: a key in a URI's query, on a page that exists, one that does not, a listing
    // whose links repeat the query, a form, and a search.
    await callTool("navigate", { uri });
    await callTool("navigate", { uri: `shop://nowhere?token=${STRIPE_KEY}` });
    await callTool("navigate", { uri: `helpdesk://tickets?q=${encodeURIComponent(CARD_SPACED)}` });
    await callTool("navigate", { uri: `shop://checkout?api_key=${STRIPE_KEY}` });
    await callTool("submit", { uri: "shop://checkout", fields: { card_number: CARD, items: [] } });
    await callTool("search", { query: `card ${CARD_SPACED} ${STRIPE_KEY}` });
    unsubscribe();

    // 1. What the agent got back repeats none of it.
    for (const [what, result] of results) expectNoLeak(`the answer to ${what}`, result);

    // 2. The audit table: every row those calls wrote.
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", seq: { gt: before ?? 0 } },
      orderBy: { seq: "asc" },
    });
    expect(rows.length).toBeGreaterThanOrEqual(results.length);
    expectNoLeak("the audit rows", rows);
    // Redacted, not dropped: support still sees which page was asked for, and with what name.
    const navigated = rows.find(
      (r) => r.operation === "browse.navigated" && r.target?.startsWith("shop://order/"),
    );
    expect(navigated?.target).toBe("shop://order/ord_paid?token=[redacted]");
    const started = rows.find((r) => r.operation === "action.started");
    expect(JSON.stringify(started?.arguments)).toContain('"card_number":"[redacted]"');
    expect(JSON.stringify(started?.arguments)).toContain("charge [redacted] please");

    // 3. The live monitor's in-process events.
    expect(published.length).toBeGreaterThanOrEqual(rows.length);
    expectNoLeak("the published events", published);

    // 4. The console's audit API and the monitor's stream, as support reads them.
    const audit = await getAudit(new Request("http://console.test/api/console/audit?limit=1000"), {
      params: Promise.resolve({}),
    });
    expect(audit.status).toBe(200);
    const auditText = await audit.text();
    expect(auditText).toContain("shop://order/ord_paid?token=[redacted]");
    for (const leak of LEAKS) expect(auditText.includes(leak), `console audit API holds ${leak}`).toBe(false);

    const abort = new AbortController();
    const stream = await getStream(
      new Request(`http://console.test/api/console/stream?after=${before ?? 0}`, { signal: abort.signal }),
      { params: Promise.resolve({}) },
    );
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let streamed = "";
    const lastSeq = rows.at(-1)?.seq ?? 0;
    while (!streamed.includes(`id: ${lastSeq}\n`)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      streamed += decoder.decode(chunk.value);
    }
    abort.abort();
    await reader.cancel().catch(() => undefined);
    expect(streamed).toContain("token=[redacted]");
    for (const leak of LEAKS) expect(streamed.includes(leak), `monitor stream holds ${leak}`).toBe(false);

    // 5. The console's action page: the engine keeps what was sent, people see it redacted.
    const actions = await w.db.action.findMany({
      where: { tenantId: "acme", createdAt: { gte: startedAt } },
    });
    expect(actions.length).toBeGreaterThan(0);
    const support = {
      sessionId: "test",
      tenantId: "acme",
      tenantName: "Acme",
      userId: w.person.adam.userId,
      email: w.person.adam.email,
      name: w.person.adam.name,
      role: "admin" as const,
    };
    for (const action of actions) {
      expectNoLeak(`the console's action ${action.id}`, await getActionDetail(w.db, support, action.id));
      // And the action's browse page, which repeats its summary.
      expectNoLeak(
        `the browse page of action ${action.id}`,
        await alice.callTool({ name: "navigate", arguments: { uri: `actions://${action.id}` } }),
      );
    }
  });
});
