import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { approve, idem } from "../../gateway/gateway-world";
import { type RecordingProxy, startRecordingProxy } from "../../helpers/prism-server";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * The demo legacy system's own `/openapi.json`, imported as `legacy://` next to the hand-written
 * `shop://` and `helpdesk://` connectors that serve the same API. What the generated connector
 * can do (read every listing with its documented filters, open records with links between
 * them, send any write after a grant and a person's approval, with the action key as the API's
 * Idempotency-Key, and read PATCHes back) and what only the hand-written one does (refuse what
 * the business would refuse before asking anyone, compute choices, scope records to the caller).
 */

let w: McpWorld;
let proxy: RecordingProxy;
let sam: Client;
let alice: Client;
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  c.callTool({ name, arguments: args });

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  proxy = await startRecordingProxy(w.legacy.url);
  const doc = await fetch(`${w.legacy.url}/openapi.json`).then((r) => r.text());
  const imported = await importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: doc,
      id: "legacy",
      baseUrl: proxy.url,
      readRoles: ["admin", "support"],
      secrets: { bearerAuth: w.legacy.apiKeys.acme },
      self: { origins: [w.url], ports: [] },
    },
    { apply: true },
  );
  if (!imported.ok) throw new Error(imported.message);
  // Support may start the generated refund and ticket-update writes (each still needs approval).
  for (const pattern of ["legacy://v1/orders/*/refunds/create", "legacy://v1/tickets/*/update"])
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "role",
        subjectId: "support",
        verb: "start",
        pattern,
        decision: "allow",
        position: 0,
      },
    });
  sam = await w.connect(w.keys.sam, { faces: "browse,actions" });
  alice = await w.connect(w.keys.alice, { faces: "browse,actions" });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await proxy?.stop();
});

describe("the legacy system's own OpenAPI document, imported", () => {
  test("the import covers the document: listings, detail pages, forms, and the one secret it needs", async () => {
    const c = (await w.gw.connectorsFor({ tenantId: "acme" })).find((x) => x.id === "legacy");
    expect(c?.secrets.map((s) => s.name).sort()).toEqual(["adminkey", "bearerauth"]);
    const patterns = c?.routes.map((r) => r.pattern) ?? [];
    expect(patterns).toEqual(
      expect.arrayContaining([
        "legacy://v1/orders",
        "legacy://v1/orders/{id}",
        "legacy://v1/orders/{id}/refunds/create",
        "legacy://v1/tickets/{id}/update",
      ]),
    );
    expect(patterns.length).toBeGreaterThanOrEqual(40);
  });

  test("can: list with the document's filters, open a record, follow its links, as support", async () => {
    const listing = await call(sam, "navigate", { uri: "legacy://v1/orders?status=shipped" });
    expect(sc(listing).outcome, text(listing)).toBe("applied");
    expect(text(listing)).toContain("ord_transit");
    expect(sc(listing).links).toContain("legacy://v1/orders/ord_transit");
    // Each row by its id, the page every row opens at said once: not a second list of the rows
    // as links (issue 23: an imported listing read each row twice).
    expect(text(listing)).toContain("| `ord_transit` |");
    expect(text(listing)).toContain("Each row's page: `legacy://v1/orders/{id}`");
    expect(text(listing)).not.toContain("Open:");
    const order = await call(sam, "navigate", { uri: "legacy://v1/orders/ord_transit" });
    expect(text(order)).toMatch(/\*\*status:\*\* shipped/);
    expect(sc(order).links).toEqual(
      expect.arrayContaining([
        "legacy://v1/orders/ord_transit/tracking",
        "legacy://v1/customers/cus_alice",
        "legacy://v1/orders/ord_transit/refunds/create",
      ]),
    );
    const bad = await call(sam, "navigate", { uri: "legacy://v1/orders?status=lost" });
    expect(text(bad)).toContain("status must be one of");
  });

  test("can: record search asks the API's own listing with a text filter, for the listing the query names", async () => {
    const found = text(await call(sam, "search", { query: "mug products" }));
    expect(found).toContain("(legacy://v1/products)");
    expect(found).toContain("Signpost Mug](legacy://v1/products/prod_mug)");
    expect(proxy.requests.some((r) => r.method === "GET" && r.path.startsWith("/v1/products?q=mug"))).toBe(
      true,
    );
  });

  test("can: a record search naming a product and its size finds that variant (issue 23), the system's filter being one substring", async () => {
    const found = text(await call(sam, "search", { query: "logo tee L products" }));
    expect(found).toContain("Logo Tee \\(L\\)](legacy://v1/products/prod_tee_l)");
    expect(found).not.toMatch(/legacy:\/\/v1\/products\/prod_tee(_s|_xl)?\)/);
    expect(found).not.toContain("none holds every word");
  });

  test("cannot (hand-written only): refuse up front what the business refuses; the API says it after approval", async () => {
    // The shop's after_sales knows a parcel in transit cannot be refunded and offers tracking.
    const shop = sc(
      await call(alice, "start_action", {
        capability: "after_sales",
        entity_id: "ord_transit",
        patch: { kind: "refund_only", reason: "late" },
      }),
    );
    expect(shop.outcome).toBe("rejected");
    expect(JSON.stringify(shop.next_actions)).toContain("track_shipment");
    // The generated form knows only the schema: it prepares the refund for approval…
    const started = await call(sam, "submit", {
      uri: "legacy://v1/orders/ord_transit/refunds/create",
      fields: { amount: 100, reason: "late" },
    });
    const id = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice(10);
    expect(id, text(started)).toBeTruthy();
    expect(text(started)).toContain("POST /v1/orders/ord_transit/refunds on");
    // …and the API refuses it only once a person approved and their approval sent it.
    const decided = await approve(w, id as string, w.person.sam);
    expect(decided.result?.outcome).toBe("rejected");
    expect(String(decided.result?.message)).toContain("409");
    // Sent once, with the action's key as the API's Idempotency-Key (the document declares it);
    // refused, so no effect is recorded as applied.
    const sent = proxy.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/orders/ord_transit/refunds",
    );
    expect(sent).toHaveLength(1);
    expect(String(sent[0]?.headers["idempotency-key"])).toContain(id as string);
    expect(await w.db.effect.count({ where: { actionId: id as string, status: "applied" } })).toBe(0);
  });

  test("can: an approved write carries the action key as the API's Idempotency-Key, and a PATCH is read back", async () => {
    const started = await call(sam, "submit", {
      uri: "legacy://v1/tickets/tkt_2/update",
      fields: { priority: "high" },
    });
    const id = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice(10);
    expect(id, text(started)).toBeTruthy();
    await approve(w, id as string, w.person.sam);
    const confirmed = sc(await call(sam, "confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("applied");
    const effect = await w.db.effect.findFirstOrThrow({ where: { actionId: id as string } });
    expect(effect.status).toBe("applied");
    const verified = sc(await call(sam, "verify_action", { action_id: id }));
    expect(verified.outcome, JSON.stringify(verified)).toBe("applied");
    const ticket = await call(sam, "navigate", { uri: "legacy://v1/tickets/tkt_2" });
    expect(text(ticket)).toMatch(/\*\*priority:\*\* high/);
  });

  test("words in an imported form's values are read like any choice: 'Urgent' is the enum's urgent, shown as sent; words that fit no choice are refused", async () => {
    const started = await call(sam, "submit", {
      uri: "legacy://v1/tickets/tkt_2/update",
      fields: { priority: "Urgent" },
    });
    const id = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice(10);
    expect(id, text(started)).toBeTruthy();
    const context = sc(await call(sam, "get_context", { action_id: id }));
    expect(context.status).toBe("awaiting_approval");
    // The person approves exactly what is sent: the API's own value.
    expect(JSON.stringify(context.summary)).toContain('"urgent"');
    expect(JSON.stringify(context.summary)).not.toContain("Urgent");
    const refused = await call(sam, "submit", {
      uri: "legacy://v1/tickets/tkt_2/update",
      fields: { priority: "very important" },
    });
    expect(text(refused)).toContain("priority must be one of");
  });

  test("a field the imported form lacks is named with the one meant and the fields accepted; on the action it stays fixable (issue 23)", async () => {
    const uri = "legacy://v1/tickets/tkt_2/update";
    const misspelt = await call(sam, "submit", { uri, fields: { priorty: "high" } });
    expect(sc(misspelt).outcome).toBe("rejected");
    expect(text(misspelt)).toMatch(/`priorty`: priorty is not a field of this form; closest: priority\n/);
    expect(sc(misspelt).links as unknown as string[]).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^actions:\/\//)]),
    );
    // The same slip inside an open action's values: the action says which field, and the agent
    // may fix it (it was refused outright, which offered only another operation or a cancel).
    const started = await call(sam, "submit", { uri, fields: { priority: "high" } });
    const id = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice(10);
    const { version } = sc(await call(sam, "get_context", { action_id: id }));
    const advanced = await call(sam, "advance_action", {
      action_id: id,
      version,
      patch: { values: { id: "tkt_2", priorty: "low" } },
    });
    expect(sc(advanced).validation_errors).toEqual([
      expect.objectContaining({
        field: "values.priorty",
        closest: "priority",
        message: expect.stringMatching(/; accepted: id, subject, description, status, priority,/),
      }),
    ]);
    expect(sc(advanced).next_actions.map((n) => n.tool)).toContain("advance_action");
  });

  test("an unanswered write is unknown: never re-sent, and with no GET to read it back it waits for a person", async () => {
    await w.legacy.injectFault({
      match: "POST /v1/orders/*/refunds",
      mode: "commit_then_timeout",
      latency_ms: 0,
      count: 1,
    });
    const started = await call(sam, "submit", {
      uri: "legacy://v1/orders/ord_paid/refunds/create",
      fields: { amount: 100, reason: "broken lamp" },
    });
    const id = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice(10);
    expect(id, text(started)).toBeTruthy();
    await approve(w, id as string, w.person.sam);
    const confirmed = sc(await call(sam, "confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("unknown");
    // Verification cannot tell (the engine's answer: not now), and says why.
    const verified = sc(await call(sam, "verify_action", { action_id: id }));
    expect(verified.outcome, JSON.stringify(verified)).toBe("temporarily_unavailable");
    expect(String(verified.message)).toContain("no GET to read this resource back");
    const sent = proxy.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/orders/ord_paid/refunds",
    );
    expect(sent).toHaveLength(1);
    const queue = await w.gw.listRecoveryQueue(w.person.sam);
    expect(queue.map((q) => q.action_id)).toContain(id);
  });

  test("the imported order agrees with itself: a line exchanged through the shop is no longer exchangeable", async () => {
    // Issue 23: the legacy API said `exchangeable: true` on the tee it had just exchanged.
    const started = await w.gw.startAction(w.agent.alice, {
      capability: "after_sales",
      entity_id: "ord_exchange",
      patch: {
        kind: "exchange",
        reason: "too small",
        item_id: "ord_exchange_item_1",
        replacement_product_id: "prod_tee_l",
      },
    });
    expect(started.outcome, JSON.stringify(started.validation_errors)).toBe("applied");
    await approve(w, started.action_id as string);
    const page = text(await call(sam, "navigate", { uri: "legacy://v1/orders/ord_exchange" }));
    const lines = page.split("\n");
    const head = lines.findIndex((l) => /^\| id \|.*\| exchangeable \|/.test(l));
    expect(head, page).toBeGreaterThan(-1);
    const columns = (lines[head] ?? "").split("|").map((c) => c.trim());
    const row = (id: string) => {
      const cells = (lines.find((l) => l.includes(id) && l.startsWith("|")) ?? "")
        .split("|")
        .map((c) => c.trim());
      return {
        status: cells[columns.indexOf("status")],
        exchangeable: cells[columns.indexOf("exchangeable")],
      };
    };
    expect(row("ord_exchange_item_1")).toEqual({ status: "exchanged", exchangeable: "false" });
    expect(row("ord_exchange_item_2")).toEqual({ status: "ok", exchangeable: "false" });
    await w.legacy.reset();
  });

  test("cannot: scope records to the caller; so a member reads nothing until an admin allows it", async () => {
    // shop://orders shows Alice her own orders; the generated listing would show every customer's.
    const mine = await call(alice, "navigate", { uri: "shop://orders" });
    expect(sc(mine).outcome).toBe("applied");
    const all = await call(alice, "navigate", { uri: "legacy://v1/orders" });
    expect(text(all)).toContain("Permission required");
  });
});
