import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createHttpClient } from "@/server/connectors/sdk/http-client";
import { SystemRejectedError, SystemUnavailableError } from "@/server/connectors/sdk/system-errors";
import { failureOutcome } from "@/server/gateway/failure-outcome";
import { readSecret, setSecret } from "@/server/gateway/vault";
import { logger } from "@/server/logger";
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

describe("browse refusals: a bad filter or a legacy refusal is not an outage; config is admin-only", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a status outside the documented enum is a rejected page naming the allowed values, not retryable, audited", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const cases: Array<[string, string, string[], string]> = [
      [
        "shop://orders?status=bogus",
        "shop://orders",
        ["pending_payment", "paid", "shipped", "delivered", "cancelled"],
        "bogus",
      ],
      ["shop://orders?status=%00", "shop://orders", ["paid"], "\\\\u0000"],
      // An encoded `&` must not smuggle a second legacy filter (another customer's orders).
      ["shop://orders?status=paid%26customer_id%3Dcus_gina", "shop://orders", ["paid"], "customer"],
      [
        "helpdesk://tickets?status=bogus",
        "helpdesk://tickets",
        ["open", "pending", "resolved", "closed"],
        "bogus",
      ],
      ["helpdesk://tickets?mine=perhaps", "helpdesk://tickets", ["1", "true"], "perhaps"],
    ];
    for (const [uri, listing, allowed, shown] of cases) {
      const p = await page(alice, "navigate", { uri });
      expect(p.outcome, uri).toBe("rejected");
      expect(p.markdown, uri).toContain("invalid_filter");
      expect(p.markdown, uri).toContain("Retryable: no");
      expect(p.markdown, uri).not.toMatch(/try again|temporarily/i);
      expect(p.markdown, uri).toContain(shown);
      for (const value of allowed) expect(p.markdown, uri).toContain(`\`${value}\``);
      expect(p.links, uri).toContain(listing);
      expect(p.links, uri).toContain(`${listing}?${uri.includes("mine=") ? "mine" : "status"}=${allowed[0]}`);
    }
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", operation: "browse.navigated", outcome: "rejected" },
    });
    const targets = rows.map((r) => r.target);
    expect(targets).toEqual(
      expect.arrayContaining([
        "shop://orders?status=bogus",
        "shop://orders?status=%00",
        "helpdesk://tickets?status=bogus",
      ]),
    );

    // The valid filters still work, and an empty one means "no filter" (it used to reach legacy as "").
    const paid = await page(alice, "navigate", { uri: "shop://orders?status=paid" });
    expect(paid.outcome).toBe("applied");
    expect(paid.links).toContain("shop://order/ord_paid");
    expect((await page(alice, "navigate", { uri: "shop://orders?status=" })).outcome).toBe("applied");
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const open = await page(sam, "navigate", { uri: "helpdesk://tickets?status=open" });
    expect(open.outcome).toBe("applied");
    expect(open.markdown).toMatch(/\| open \|/);

    // A misspelt filter or an impossible page is refused, not silently ignored or clamped.
    for (const [uri, problem] of [
      ["shop://orders?stauts=paid", '"stauts" is not a filter'],
      ["helpdesk://tickets?assignee=me", '"assignee" is not a filter'],
      ["shop://orders?page=0", "`page` must be"],
      ["shop://orders?page=two", "`page` must be"],
      ["helpdesk://tickets?per_page=500", "`per_page` must be"],
      // Object keys are not filters either (`constructor` is inherited by every object).
      ["shop://orders?constructor=x", '"constructor" is not a filter'],
      ["helpdesk://tickets?hasownproperty=1", '"hasownproperty" is not a filter'],
    ] as const) {
      const p = await page(sam, "navigate", { uri });
      expect(p.outcome, uri).toBe("rejected");
      expect(p.markdown, uri).toContain(problem);
      expect(p.markdown, uri).toContain("invalid_filter");
      expect(p.markdown, uri).toContain("`page`, `per_page`");
    }
    const paged = await page(sam, "navigate", { uri: "helpdesk://tickets?status=open&page=1&per_page=2" });
    expect(paged.outcome).toBe("applied");
    // The search the tickets listing advertises (?q=) is a filter too, with free text.
    const printer = await page(sam, "navigate", { uri: "helpdesk://tickets?q=printer" });
    expect(printer.outcome).toBe("applied");
  });

  it("a legacy 4xx on a read is rejected (legacy_rejected, code named, not retryable); it leaks neither key nor address", async () => {
    const wrongKey = "lk_wrong_key_for_this_test_0123456789";
    await setSecret(w.db, { tenantId: "acme", connector: "shop", name: "api_key", value: wrongKey });
    try {
      const alice = await w.connect(w.keys.alice, { faces: "browse" });
      const p = await page(alice, "navigate", { uri: "shop://products" });
      expect(p.outcome).toBe("rejected");
      expect(p.markdown).toContain("Reason: `legacy_rejected`");
      expect(p.markdown).toContain("401 unauthorized");
      expect(p.markdown).toContain("Retryable: no");
      expect(p.markdown).not.toMatch(/try again/i);
      expect(p.markdown).not.toContain(wrongKey);
      expect(p.markdown).not.toContain(w.legacy.url);
      expect(p.markdown).not.toContain("127.0.0.1");
      const row = await w.db.auditEvent.findFirst({
        where: { tenantId: "acme", operation: "browse.navigated", target: "shop://products" },
        orderBy: { seq: "desc" },
      });
      expect(row?.outcome).toBe("rejected");
      expect(JSON.stringify(row)).not.toContain(wrongKey);

      // The action face answers the same refusal (one failureOutcome behind both faces).
      const view = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
      expect(view).toMatchObject({ outcome: "rejected", reason: "legacy_rejected", retryable: false });
      expect(view.message).toContain("401 unauthorized");
      expect(JSON.stringify(view)).not.toContain(wrongKey);
    } finally {
      await setSecret(w.db, {
        tenantId: "acme",
        connector: "shop",
        name: "api_key",
        value: w.legacy.apiKeys.acme,
      });
    }
  });

  it("legacy down is still temporarily_unavailable and retryable", async () => {
    await w.legacy.injectFault({ match: "GET /v1/orders", mode: "down" });
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const p = await page(alice, "navigate", { uri: "shop://orders" });
    expect(p.outcome).toBe("temporarily_unavailable");
    expect(p.markdown).toContain("Reason: `legacy_unavailable`");
    expect(p.markdown).toContain("Retryable: yes");
    await w.legacy.clearFaults();
    expect((await page(alice, "navigate", { uri: "shop://orders" })).outcome).toBe("applied");
  });

  it("the SDK http client: a 4xx read throws SystemRejectedError with status and code, a 404 is null, down is SystemUnavailableError", async () => {
    const http = createHttpClient({ baseUrl: w.legacy.url, apiKey: w.legacy.apiKeys.acme });
    const rejected = await http.get("/v1/orders", { status: "bogus" }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(SystemRejectedError);
    expect(rejected).toMatchObject({ status: 400, code: "invalid_request" });
    expect(rejected).not.toBeInstanceOf(SystemUnavailableError);
    expect(await http.get("/v1/orders/ord_nope")).toBeNull();
    await w.legacy.injectFault({ match: "GET /v1/products", mode: "down" });
    await expect(http.get("/v1/products")).rejects.toBeInstanceOf(SystemUnavailableError);
  });

  it("failureOutcome: only an outage is retryable; a bug is rejected/internal_error and logged, without its text", () => {
    const log = vi.spyOn(logger, "error").mockImplementation(() => {});
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => {});
    try {
      expect(failureOutcome(new SystemUnavailableError("down"), "test")).toMatchObject({
        outcome: "temporarily_unavailable",
        reason: "legacy_unavailable",
        retryable: true,
      });
      const refused = failureOutcome(
        new SystemRejectedError("/v1/x", 422, "validation_failed", "bad"),
        "test",
      );
      expect(refused).toMatchObject({ outcome: "rejected", reason: "legacy_rejected", retryable: false });
      expect(refused.message).toContain("validation_failed");
      expect(refused.message).not.toContain("/v1/x");
      const bug = failureOutcome(new TypeError("cannot read secret_thing of undefined"), "test");
      expect(bug).toMatchObject({ outcome: "rejected", reason: "internal_error", retryable: false });
      expect(bug.message).toMatch(/logged/);
      expect(bug.message).not.toContain("secret_thing");
      expect(log).toHaveBeenCalled();
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });

  it("config://… does not exist for a member or support agent: not_found, absent from start, not-found and search pages", async () => {
    for (const who of ["alice", "sam"] as const) {
      const agent = await w.connect(w.keys[who], { faces: "browse" });
      for (const uri of ["config://shop", "config://helpdesk"]) {
        const p = await page(agent, "navigate", { uri });
        expect(p.outcome, `${who} ${uri}`).toBe("not_found");
        expect(p.markdown).not.toContain(w.legacy.url);
        expect(p.markdown).not.toContain("api_key");
        expect(p.links).toContain("shop://orders");
        expect(p.links.some((l) => l.startsWith("config://"))).toBe(false);
      }
      const sent = await page(agent, "submit", {
        uri: "config://shop",
        fields: { name: "api_key", value: "lk_stolen_value_123456" },
      });
      expect(sent.outcome).toBe("not_found");
      const start = await page(agent, "navigate", { uri: "signpost://start" });
      expect(start.outcome).toBe("applied");
      expect(start.links).toContain("shop://orders");
      expect(start.links.some((l) => l.startsWith("config://"))).toBe(false);
      expect(start.markdown).not.toMatch(/settings/i);
      for (const query of ["config", "shop settings", "api key credentials", "secret", "connection"]) {
        const found = await page(agent, "search", { query });
        expect(found.markdown, query).not.toContain("config://");
        expect(
          found.links.some((l) => l.startsWith("config://")),
          query,
        ).toBe(false);
      }
      const scoped = await page(agent, "search", { query: "settings", scheme: "config" });
      expect(scoped.markdown).not.toContain("config://");
      // Not registered as a resource for them either: MCP's own "resource not found".
      await expect(agent.readResource({ uri: "config://shop" })).rejects.toThrow(/Resource not found/);
    }
    expect(await readSecret(w.db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBe(
      w.legacy.apiKeys.acme,
    );
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", operation: "browse.navigated", target: "config://shop" },
    });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.outcome === "not_found")).toBe(true);
  });

  it("an admin's agent keeps the config pages: applied, secret set/not set, never its value", async () => {
    const adam = await w.connect(w.keys.adam, { faces: "browse" });
    const config = await page(adam, "navigate", { uri: "config://shop" });
    expect(config.outcome).toBe("applied");
    expect(config.markdown).toMatch(/\| api_key \| set \|/);
    expect(config.markdown).not.toContain(w.legacy.apiKeys.acme);
    const start = await page(adam, "navigate", { uri: "signpost://start" });
    expect(start.links).toContain("config://connectors");
    const list = await page(adam, "navigate", { uri: "config://connectors" });
    expect(list.links).toEqual(expect.arrayContaining(["config://shop", "config://helpdesk"]));
    const found = await page(adam, "search", { query: "config" });
    expect(found.links).toContain("config://connectors");
    const named = await page(adam, "search", { query: "shop api key" });
    expect(named.links).toContain("config://shop");
  });
});
