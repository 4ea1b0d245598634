// stays-whole: one behaviour (a list's heading, its rows and its verdicts agree) over one MCP world.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/** One row of an offered list as the agent reads it, with the record's facts from the system. */
interface Shown {
  id: string;
  possible: string;
  record: Json;
}

const URGENCY: Record<string, number> = { urgent: 0, high: 1, normal: 2, low: 3 };
const age = (r: Shown) => String(r.record.created_at);

/**
 * What each clause a heading may say means for two adjacent rows (negative: a before b, as the
 * heading says; 0: this clause does not tell them apart). A clause the checker does not know
 * fails the test: a heading cannot say an order nobody checks.
 */
function clauseOrder(clause: string): ((a: Shown, b: Shown) => number) | null {
  const yes = (r: Shown) => (r.possible === "yes" ? 0 : 1);
  if (/^those (it can act on|that can take it) first$/.test(clause)) return (a, b) => yes(a) - yes(b);
  if (clause === "oldest first by creation") return (a, b) => age(a).localeCompare(age(b));
  if (clause === "newest first by creation") return (a, b) => age(b).localeCompare(age(a));
  if (clause === "more urgent")
    return (a, b) => (URGENCY[String(a.record.priority)] ?? 9) - (URGENCY[String(b.record.priority)] ?? 9);
  if (clause === "recently updated")
    return (a, b) => String(b.record.updated_at).localeCompare(String(a.record.updated_at));
  if (clause === "open and pending before resolved") {
    const rank = (r: Shown) => (r.record.status === "resolved" ? 1 : 0);
    return (a, b) => rank(a) - rank(b);
  }
  if (clause === "unassigned first") {
    const rank = (r: Shown) => (r.record.assignee_id ? 1 : 0);
    return (a, b) => rank(a) - rank(b);
  }
  if (clause === "resolved before closed") {
    const rank = (r: Shown) => (r.record.status === "resolved" ? 0 : 1);
    return (a, b) => rank(a) - rank(b);
  }
  return null;
}

/** The tickets list of an answer: its heading's clauses, the words it keeps to, and its rows. */
function ticketList(body: string): { clauses: string[]; only: string[]; ids: string[]; possible: string[] } {
  const heading = /^options\.tickets \(for ticket_id(?:; (.*))?\):$/m.exec(body);
  if (!heading) throw new Error(`no tickets list in:\n${body}`);
  let said = heading[1] ?? "";
  const only = /^only (?:the )?(.+?) ones \(\d+ others? left out\)(?:, |$)/.exec(said);
  if (only) said = said.slice(only[0].length);
  const start = body.indexOf(heading[0]) + heading[0].length + 1;
  const rows = body.slice(start).split("\n");
  const shown = rows.slice(
    0,
    rows.findIndex((l) => !l.startsWith("- `")),
  );
  return {
    clauses: said ? said.split(/, then /) : [],
    only: only ? (only[1] ?? "").split(" ") : [],
    ids: shown.map((l) => /^- `([^`]+)`/.exec(l)?.[1] ?? ""),
    possible: shown.map((l) => / · possible: (.*)$/.exec(l)?.[1] ?? ""),
  };
}

/**
 * Issue 23, round 8 (Sam: "Bump the oldest open shipping ticket to urgent", after tkt_2 was
 * resolved): the list's heading said an order its rows were not in (a closed ticket first), and
 * "no ticket that can take this fits …" hid that the oldest open shipping ticket is already
 * urgent. Real MCP client over HTTP, the gateway and the legacy service.
 */
describe("a list states its order truly, and a record the words name that cannot take the change says why", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string, init?: { method: string; body: Json }) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, {
        method: init?.method ?? "GET",
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          "content-type": "application/json",
          "idempotency-key": `k-${Math.random()}`,
        },
        ...(init ? { body: JSON.stringify(init.body) } : {}),
      })
    ).json()) as Json;
  const tickets = async () =>
    new Map(((await legacy("/v1/tickets?per_page=100")).data as Json[]).map((t) => [String(t.id), t]));
  // Task 16 of the round resolved tkt_2: the oldest open shipping ticket is then tkt_9, already urgent.
  const resolveTkt2 = () =>
    legacy("/v1/tickets/tkt_2", { method: "PATCH", body: { status: "resolved", resolution: "found" } });

  /** Every adjacent pair of rows is in the order the heading says, and keeps to its words. */
  async function expectHeadingTrue(body: string) {
    const list = ticketList(body);
    const byId = await tickets();
    const rows: Shown[] = list.ids.map((id, i) => ({
      id,
      possible: list.possible[i] ?? "",
      record: byId.get(id) ?? {},
    }));
    expect(rows.length).toBeGreaterThan(0);
    const orders = list.clauses.map((c) => {
      const order = clauseOrder(c);
      if (!order) throw new Error(`a heading clause nobody checks: "${c}"`);
      return order;
    });
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1] as Shown, rows[i] as Shown];
      const decided = orders.map((o) => o(a, b)).find((d) => d !== 0) ?? 0;
      expect(decided, `${a.id} before ${b.id} under "${list.clauses.join(", then ")}"`).toBeLessThanOrEqual(
        0,
      );
    }
    for (const r of rows)
      for (const word of list.only)
        expect(Object.values(r.record).map((v) => String(v).toLowerCase())).toContain(word);
  }

  it("the round's answer: tkt_9 is named, and the start ends on why it cannot take it (already urgent); nothing changes", async () => {
    await resolveTkt2();
    const sam = await w.connect(w.keys.sam);
    const before = await tickets();
    const bumped = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "change_ticket_priority",
        intent: "Bump the oldest open shipping ticket to urgent",
        patch: { priority: "urgent" },
      },
    });
    const body = text(bumped);
    // The words name tkt_9: it is taken and its own check answers, which ends the start
    // (ends-at-start.ts), so no list of others is owed (age-names-the-record.test.ts: never one
    // that can take the change in its place).
    expect(sc(bumped)).toMatchObject({ status: "refused", reason: "same_priority" });
    expect((sc(bumped).from_words as Json).ticket_id).toBe("tkt_9");
    expect(body.split("\n")[0]).toMatch(/already urgent: nothing to change/);
    // The only open shipping ticket left is said to be the only one (with its time and how long
    // ago), not "the oldest" beside today's date.
    expect(body).toMatch(
      /taken from the words: ticket_id = tkt_9 \(the only one with status open, team shipping, created \d{4}-\d\d-\d\d \d\d:\d\d UTC, (just now|\d+ \w+ ago)[;)]/,
    );
    expect(body).not.toContain("no ticket that can take this fits");
    expect(await tickets()).toEqual(before);
  });

  it("for each age word, description and eligibility, the heading says the order the rows are in", async () => {
    const sam = await w.connect(w.keys.sam);
    const intents = [
      "bump the oldest open ticket to urgent",
      "bump the newest open ticket to urgent",
      "bump the oldest ticket to urgent",
      "bump the oldest shipping ticket to urgent",
      "bump the oldest login ticket to urgent",
      "bump the newest billing ticket to urgent",
    ];
    for (const resolved of [false, true]) {
      await w.legacy.reset();
      if (resolved) await resolveTkt2();
      for (const intent of intents)
        for (const patch of [{ priority: "urgent" }, { priority: "low" }]) {
          const r = await sam.callTool({
            name: "start_action",
            arguments: { capability: "change_ticket_priority", intent, patch },
          });
          if (/^options\.tickets /m.test(text(r))) await expectHeadingTrue(text(r));
        }
      // No words at all: each capability's own order.
      for (const capability of [
        "change_ticket_priority",
        "assign_ticket",
        "reopen_ticket",
        "resolve_ticket",
      ]) {
        const r = await sam.callTool({ name: "start_action", arguments: { capability } });
        await expectHeadingTrue(text(r));
      }
    }
  });

  it("a row offered as possible is not refused for that record when started with the same values; one marked not possible is", async () => {
    await resolveTkt2();
    const sam = await w.connect(w.keys.sam);
    const cases: Array<[string, Json]> = [
      ["change_ticket_priority", { priority: "urgent" }],
      ["change_ticket_priority", { priority: "normal" }],
      ["assign_ticket", { assignee_id: "tm_sid" }],
      ["resolve_ticket", { resolution: "Sorted with the customer." }],
      ["reopen_ticket", { reason: "The customer wrote back." }],
    ];
    for (const [capability, patch] of cases) {
      const offered = ticketList(
        text(await sam.callTool({ name: "start_action", arguments: { capability, patch } })),
      );
      for (const [i, id] of offered.ids.entries()) {
        const started = sc(
          await sam.callTool({
            name: "start_action",
            arguments: { capability, entity_id: id, patch, dry_run: true },
          }),
        );
        const refused = (started.validation_errors ?? []) as Json[];
        const verdict = offered.possible[i];
        if (verdict === "yes") expect(refused, `${capability} ${id}`).toEqual([]);
        else expect(refused.length, `${capability} ${id}: ${verdict}`).toBeGreaterThan(0);
      }
    }
  });
});
