import { afterAll, beforeAll, expect, it } from "vitest";
import type { PublishedAuditEvent } from "@/server/gateway/event-stream";
import { describeEachProvider } from "../helpers/database";
import { createWorld, type World } from "./gateway-world";

/** A stored row's arguments must stay this small whatever a caller sent (about 4 kB kept, plus markers). */
const ROW_BOUND = 6_000;

/** `{ next: { next: … } }`, `levels` deep, with a marker string at the bottom. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { bottom: "reached" };
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

describeEachProvider("audit rows keep a bounded copy of arguments (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  it("a 1 MB string, 1000 levels and 10,000 keys: the row and the published event are small, name the fields, redact the secret", async () => {
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    const seen: PublishedAuditEvent[] = [];
    const unsubscribe = w.gw.subscribe((e) => seen.push(e));
    const event = await w.gw.recordAudit(w.agent.alice, {
      operation: "action.started",
      arguments: {
        capability: "checkout",
        huge: "x".repeat(1_000_000),
        deep: nested(1000),
        many,
        list: Array.from({ length: 10_000 }, (_, i) => i),
        // Secrets by value at the front of a string that is then cut, and by key.
        note: `Bearer ${w.keys.alice} ${"y".repeat(5000)}`,
        api_key: w.legacy.apiKeys.acme,
      },
      outcome: "rejected",
      message: "invalid arguments",
      latencyMs: 1,
    });
    unsubscribe();

    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { tenantId: event.tenantId, seq: event.seq },
    });
    const stored = JSON.stringify(row.arguments);
    expect(stored.length).toBeLessThan(ROW_BOUND);
    expect(JSON.stringify(seen.find((e) => e.seq === event.seq)?.arguments)).toBe(stored);

    const args = row.arguments as Record<string, unknown>;
    // Every field is still named, small ones as sent.
    // (PostgreSQL's jsonb keeps its own key order.)
    expect(Object.keys(args).sort()).toEqual([
      "api_key",
      "capability",
      "deep",
      "huge",
      "list",
      "many",
      "note",
    ]);
    expect(args.capability).toBe("checkout");
    // The cut says what it cut.
    expect(args.huge).toBe(`${"x".repeat(200)}…[+999800 chars]`);
    const kept = args.many as Record<string, unknown>;
    expect(kept.k0).toBe(0);
    expect(kept.k49).toBe(49);
    expect(kept.k50).toBeUndefined();
    expect(kept["…"]).toBe("[+9950 keys]");
    expect((args.list as unknown[]).slice(0, 3)).toEqual([0, 1, 2]);
    expect((args.list as unknown[]).at(-1)).toBe("…[+9950 items]");
    // Depth is limited: the bottom of the nesting is not kept, a marker is.
    expect(stored).toContain('"next":"[…]"');
    expect(stored).not.toContain("reached");
    // Secrets: redacted before the cut, so no prefix of them survives either.
    expect(args.api_key).toBe("[redacted]");
    expect(String(args.note).startsWith("[redacted] yyy")).toBe(true);
    expect(stored).not.toContain(w.keys.alice.slice(0, 12));
    expect(stored).not.toContain(w.legacy.apiKeys.acme.slice(0, 12));
  });

  it("ordinary arguments are stored exactly as sent", async () => {
    const args = {
      capability: "after_sales",
      entity_id: "ord_paid",
      patch: { reason: "changed my mind", items: [{ sku: "mug", qty: 2 }], refund: { method: "original" } },
      flags: [true, false, null],
    };
    const event = await w.gw.recordAudit(w.agent.alice, {
      operation: "action.started",
      arguments: args,
      outcome: "applied",
      latencyMs: 1,
    });
    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { tenantId: event.tenantId, seq: event.seq },
    });
    expect(row.arguments).toEqual(args);
  });

  it("start_action with an unknown 1 MB field through the pipeline: rejected / invalid_arguments, row bounded", async () => {
    const before = (await w.db.auditEvent.findFirst({ orderBy: { seq: "desc" } }))?.seq ?? 0;
    const out = await w.gw.startAction(w.agent.alice, {
      capability: "checkout",
      blob: "z".repeat(1_000_000),
    });
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    const rows = await w.db.auditEvent.findMany({ where: { seq: { gt: before } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: "action.started", outcome: "rejected" });
    expect(rows[0]?.arguments).toEqual({
      capability: "checkout",
      blob: `${"z".repeat(200)}…[+999800 chars]`,
    });
  });

  it("8,000 keys that redact alike (password=<i>): the row is bounded and keeps no secret; the work is linear", async () => {
    const colliding = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`password=${i}`, i]));
    const record = (args: Record<string, unknown>) =>
      w.gw.recordAudit(w.agent.alice, {
        operation: "context.read",
        arguments: args,
        outcome: "rejected",
        message: "invalid arguments",
        latencyMs: 1,
      });
    const timed = async (n: number) => {
      const args = colliding(n);
      // This process's CPU time, not the wall clock: on a loaded machine the wall clock counts the
      // turns other processes took (a full run once measured a ratio of 85 for linear work).
      const startedAt = process.cpuUsage();
      const event = await record(args);
      const used = process.cpuUsage(startedAt);
      return { event, ms: (used.user + used.system) / 1000 };
    };
    // Best of three at each size: load only ever adds time (caches, collections), so the fastest
    // run is the closest to the work itself (one slow run once pushed a linear ratio from ~8 to 30).
    const fastest = async (n: number) => {
      let best = await timed(n);
      for (let i = 0; i < 2; i++) {
        const next = await timed(n);
        if (next.ms < best.ms) best = next;
      }
      return best;
    };
    await timed(500); // warm: the first row pays for compiling the paths
    // 16× the keys: linear work takes ≤16× the time, quadratic ~256×. The bound sits between them
    // (their geometric mean), far from both, so noise cannot cross it but a quadratic step (the
    // collision renaming once was one) does.
    const small = await fastest(500);
    const { event, ms } = await fastest(8_000);
    expect(ms / Math.max(small.ms, 0.5)).toBeLessThan(64);
    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { tenantId: event.tenantId, seq: event.seq },
    });
    const keys = Object.keys(row.arguments as Record<string, unknown>);
    expect(keys.length).toBeLessThanOrEqual(51);
    expect(keys).toContain("…");
    expect((row.arguments as Record<string, unknown>)["…"]).toMatch(/\+7950 keys/);
    expect(JSON.stringify(row.arguments)).not.toMatch(/password=\d/);
  });
});
