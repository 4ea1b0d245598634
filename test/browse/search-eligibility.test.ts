import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ELIGIBILITY_CAP } from "@/server/browse/eligible-records";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** The record links under one heading of the answer ("Possible:" / "Not possible:"), in order. */
function idsUnder(answer: string, heading: string): string[] {
  const part = answer.split(`${heading}\n`)[1]?.split("\n\n")[0] ?? "";
  return [...part.matchAll(/^- \[(\w+)\]\(/gm)].map((m) => m[1] as string);
}

/**
 * A search asking which records an action is possible for answers it in that one call: the
 * capability's own dry run, for each record of its listing (bounded), says where it is possible
 * and why not elsewhere. Round 4's model asked "which of my orders can I still return?", got a
 * line pointing at the dry run, and spent one more call per order.
 */
describe("search: which records an action is possible for", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("lists where it is possible and why not elsewhere, as start_action's own dry run says, in one call", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const actions = await w.connect(w.keys.alice, { faces: "actions" });
    const query = "which of my orders can I still return?";
    const answer = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(answer).toContain("## Where `after_sales` is possible now");
    expect(answer).toContain("nothing was changed");
    const possible = idsUnder(answer, "Possible:");
    const not = idsUnder(answer, "Not possible:");
    expect(possible.length).toBeGreaterThan(0);
    expect(not.length).toBeGreaterThan(0);
    // Every record of the listing was checked (the demo customer has fewer than the cap).
    const listing = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    const rows = [...listing.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(new Set([...possible, ...not])).toEqual(new Set(rows));
    // What each line says is what start_action's dry run says for that record and those words.
    for (const id of [...possible, ...not]) {
      const preview = (
        await actions.callTool({
          name: "start_action",
          arguments: { capability: "after_sales", entity_id: id, intent: query, dry_run: true },
        })
      ).structuredContent as { validation_errors?: Array<{ message: string }> };
      const refused = (preview.validation_errors ?? []).length > 0;
      expect(refused, id).toBe(not.includes(id));
      if (refused) {
        const line = answer.split("\n").find((l) => l.startsWith(`- [${id}]`)) ?? "";
        const why = preview.validation_errors?.[0]?.message.split("; ")[0]?.slice(0, 60) ?? "";
        expect(line).toContain(why);
      }
    }
    // The question is no reason the user gave: never repeated on the rows as a choice.
    expect(answer).not.toContain("taken from the request");
    // The one possible path of an order that is not yet shipped is said, as the dry run says it.
    expect(answer).toMatch(/^- \[ord_paid\]\(shop:\/\/order\/ord_paid\) — .*refund_only/m);
    // A question that asks nothing of the kind stays a plain search.
    const plain = text(await alice.callTool({ name: "search", arguments: { query: "my delivered orders" } }));
    expect(plain).not.toContain("is possible now");
  });

  it("a near match of the same records is checked too (set AT)", async () => {
    // "cancel" names the unpaid order's cancellation and the paid one's cancel-and-refund: only the
    // refund was checked, and it called the unpaid order "not possible".
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const query = "Is there any order I can still cancel without paying anything?";
    const answer = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(answer).toContain("## Where `after_sales` is possible now");
    expect(answer).toContain("## Where `cancel_unpaid_order` is possible now");
    const cancel = answer.slice(answer.indexOf("## Where `cancel_unpaid_order`"));
    expect(idsUnder(cancel, "Possible:")).toEqual(["ord_pending"]);
    // A question only one capability answers stays one section.
    const returns = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "which of my orders can I still return?" },
      }),
    );
    expect(returns.match(/## Where /g)?.length).toBe(1);
    // Words that say the best one's own verb are its alone (review 55c: "close" is resolve_ticket's
    // word too, and 18 dry runs listed tickets to resolve as if closable).
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const close = text(
      await sam.callTool({ name: "search", arguments: { query: "Which tickets can I still close?" } }),
    );
    expect(close.match(/## Where /g)?.length).toBe(1);
  });

  // Set DH (both hosts, 4 calls): "can still be cancelled" filtered the orders by status
  // cancelled and listed the one order that can no longer be.
  it("asked in the passive ('can still be cancelled', 'can be closed'), the same answer", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const answer = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "Which of my orders can still be cancelled?" },
      }),
    );
    expect(answer).not.toMatch(/Filtered: status = cancelled/);
    const cancel = answer.slice(answer.indexOf("## Where `cancel_unpaid_order`"));
    expect(idsUnder(cancel, "Possible:")).toEqual(["ord_pending"]);
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const close = text(
      await sam.callTool({ name: "search", arguments: { query: "tickets that can be closed" } }),
    );
    expect(close).toContain("## Where `close_ticket` is possible now");
    // A state asked without "can be" is the state's filter, as before.
    const cancelled = text(
      await alice.callTool({ name: "search", arguments: { query: "my cancelled orders" } }),
    );
    expect(cancelled).toMatch(/Filtered: status = cancelled/);
  });

  it("checks at most the cap, each check on record as the caller's dry run", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const last = await w.db.auditEvent.findFirst({ where: { tenantId: "acme" }, orderBy: { seq: "desc" } });
    const answer = text(
      await sam.callTool({ name: "search", arguments: { query: "which tickets can I reopen?" } }),
    );
    expect(answer).toContain("## Where `reopen_ticket` is possible now");
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", seq: { gt: last?.seq ?? 0 } },
      orderBy: { seq: "asc" },
    });
    const checks = rows.filter((r) => r.operation === "action.started");
    expect(checks.length).toBeGreaterThan(0);
    expect(checks.length).toBeLessThanOrEqual(ELIGIBILITY_CAP);
    for (const row of checks) {
      expect(row.face).toBe("browse");
      expect(row.outcome).toBe("preview");
      expect((row.arguments as { dry_run?: boolean }).dry_run).toBe(true);
    }
    // Nothing was started: no action row came of it.
    expect(await w.db.action.count({ where: { capability: "reopen_ticket" } })).toBe(0);
    // The listing read and the search itself are on record too.
    expect(rows.map((r) => r.operation)).toEqual(
      expect.arrayContaining(["browse.navigated", "browse.searched"]),
    );
  });

  it("a caller who may not start the capability learns that once, and no record's answer", async () => {
    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "alice@acme.test" } },
    });
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: agent.id,
        verb: "start",
        pattern: "capability:after_sales",
        decision: "deny",
        position: 0,
      },
    });
    try {
      const alice = await w.connect(w.keys.alice, { faces: "browse" });
      const last = await w.db.auditEvent.findFirst({ where: { tenantId: "acme" }, orderBy: { seq: "desc" } });
      const answer = text(
        await alice.callTool({
          name: "search",
          arguments: { query: "which of my orders can I still return?" },
        }),
      );
      expect(answer).toContain("Could not check `after_sales`");
      expect(answer).not.toContain("Possible:");
      // The permission is asked once, before any record is: not one dry run is made.
      const checks = await w.db.auditEvent.count({
        where: { tenantId: "acme", seq: { gt: last?.seq ?? 0 }, operation: "action.started" },
      });
      expect(checks).toBe(0);
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
    }
  });
});
