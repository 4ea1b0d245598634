import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { MAX_STATE_CHARS } from "@/server/engine/state-ceiling";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Outcome = ReturnType<typeof sc> & {
  reason?: string;
  validation_errors?: Array<{ field: string; code: string; message: string }>;
};

/** JSON text of an array nested `depth` deep: no JS value of this depth survives JSON.stringify. */
const DEEP = 20_000;
const deepArrayJson = "[".repeat(DEEP) + "]".repeat(DEEP);
/** Stands for the deep array in arguments; the client's fetch swaps it into the request body. */
const DEEP_PLACEHOLDER = "__deep_array__";

const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/**
 * Input an agent controls stays bounded: a value of any size or depth gets the typed
 * `rejected` / `invalid_arguments` naming the field (never `internal_error`), the audit row keeps
 * a small copy, and neither a refused value nor an oversized patch fills the Action table.
 * Through a real MCP client against the same handler the Next route serves.
 */
describeEachProvider("bounded input over MCP (%s)", (provider) => {
  let w: McpWorld;
  let client: Client;
  let browse: Client;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
    client = await connect();
    browse = await connect("browse");
  });
  afterAll(async () => {
    await client?.close();
    await browse?.close();
    await w?.close();
  });
  beforeEach(async () => w.legacy.reset());

  /** A real SDK client whose requests carry the deep array where the placeholder stands. */
  async function connect(faces?: string): Promise<Client> {
    const c = new Client(
      { name: "bounded-input", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    const url = new URL(w.endpoint);
    if (faces) url.searchParams.set("faces", faces);
    await c.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${w.keys.alice}` } },
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            body:
              typeof init?.body === "string"
                ? init.body.replace(`"${DEEP_PLACEHOLDER}"`, deepArrayJson)
                : init?.body,
          }),
      }),
    );
    return c;
  }

  const lastId = async () => (await w.db.auditEvent.findFirst({ orderBy: { id: "desc" } }))?.id ?? 0;
  const rowsAfter = (id: number) =>
    w.db.auditEvent.findMany({ where: { id: { gt: id } }, orderBy: { id: "asc" } });
  const actionCount = () => w.db.action.count();
  /** The largest stored state, in characters of JSON, as the database holds it. */
  const largestState = async () =>
    Math.max(
      0,
      ...(await w.db.action.findMany({ select: { state: true } })).map((r) => JSON.stringify(r.state).length),
    );

  async function refusedStart(args: Record<string, unknown>) {
    const actionsBefore = await actionCount();
    const before = await lastId();
    const res = await client.callTool({ name: "start_action", arguments: args });
    const out = sc(res) as Outcome;
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments", retryable: false });
    // The whole answer stays small, whatever was sent.
    expect(JSON.stringify(res).length).toBeLessThan(3_000);
    expect(await actionCount()).toBe(actionsBefore);
    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.operation, r.outcome])).toEqual([["action.started", "rejected"]]);
    expect(JSON.stringify(rows[0]?.arguments).length).toBeLessThan(4_000);
    return { out, res };
  }

  it("a 20,000-deep array in patch.items is invalid_arguments / too_deep naming patch.items, not internal_error", async () => {
    const { out } = await refusedStart({ capability: "checkout", patch: { items: DEEP_PLACEHOLDER } });
    expect(out.validation_errors).toEqual([
      expect.objectContaining({ code: "too_deep", field: expect.stringMatching(/^patch\.items\.0\.0/) }),
    ]);
  });

  it("a 3.9 MB string in patch.items is invalid_arguments / too_large naming patch.items; no Action row holds it", async () => {
    const { out, res } = await refusedStart({
      capability: "checkout",
      patch: { items: "x".repeat(3_900_000) },
    });
    expect(out.validation_errors).toEqual([
      expect.objectContaining({
        field: "patch.items",
        code: "too_large",
        message: expect.stringMatching(/3900000/),
      }),
    ]);
    expect(text(res)).toMatch(/patch\.items/);
    expect(await largestState()).toBeLessThan(10_000);
  });

  it("an object with 100,000 keys, as the patch or as the arguments, is invalid_arguments naming it", async () => {
    const { out: patch } = await refusedStart({ capability: "checkout", patch: manyKeys(100_000) });
    expect(patch.validation_errors).toEqual([expect.objectContaining({ field: "patch", code: "too_large" })]);
    const { out: top } = await refusedStart({ capability: "checkout", ...manyKeys(100_000) });
    expect(top.validation_errors).toEqual([expect.objectContaining({ field: "(input)", code: "too_large" })]);
    // Two 1.3 MB calls of 100,000 keys each (client encoding, parse, bounds, audit): 14–16 s at
    // load 32 on two cores, against the 30 s default, which a combined run at higher load outran.
    // The claim is the typed refusal and what is stored, not a duration (the bench measures that).
  }, 120_000);

  it("advance_action applies the same bounds: the action does not move", async () => {
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid" },
      }),
    );
    const res = await client.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { reason: DEEP_PLACEHOLDER },
      },
    });
    expect(sc(res) as Outcome).toMatchObject({
      outcome: "rejected",
      reason: "invalid_arguments",
      validation_errors: [
        expect.objectContaining({ code: "too_deep", field: expect.stringMatching(/^patch\.reason/) }),
      ],
    });
    const row = await w.db.action.findUniqueOrThrow({ where: { id: String(started.action_id) } });
    expect(row.version).toBe(started.version);
  });

  it("the HTTP body is bounded at 4 MiB (413 before any tool); the gateway refuses a 5 MB string by name for every face", async () => {
    const before = await lastId();
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: "x".repeat(5_000_000) } },
      },
    };
    const http = await fetch(w.endpoint, {
      method: "POST",
      headers: {
        authorization: `Bearer ${w.keys.alice}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(call),
    });
    expect(http.status).toBe(413);
    expect(await rowsAfter(before)).toEqual([]);

    // Faces without that body limit (stdio, the console, scripts) reach the same gateway.
    const actionsBefore = await actionCount();
    const out = (await w.gw.startAction(w.agent.alice, call.params.arguments)) as Outcome;
    expect(out).toMatchObject({
      outcome: "rejected",
      reason: "invalid_arguments",
      validation_errors: [expect.objectContaining({ field: "patch.items", code: "too_large" })],
    });
    expect(await actionCount()).toBe(actionsBefore);
    const rows = await rowsAfter(before);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]?.arguments).length).toBeLessThan(4_000);
  });

  it("browse submit with a deep, a huge or a many-keyed field is a rejected page naming the field, audited bounded", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { uri: "shop://checkout", fields: { items: DEEP_PLACEHOLDER } },
        /`fields\.items\.0\.0[.0]*` \(too_deep\)/,
      ],
      [
        { uri: "shop://checkout", fields: { coupon_code: "c".repeat(5_000_000 / 2) } },
        /`fields\.coupon\\?_code` \(too_large\)/,
      ],
      [{ uri: "shop://checkout", fields: manyKeys(100_000) }, /`fields` \(too_large\)/],
      [{ uri: `shop://orders/${"o".repeat(100_000)}` }, /`uri` \(too_large\)/],
    ];
    const actionsBefore = await actionCount();
    for (const [args, named] of cases) {
      const before = await lastId();
      const res = await browse.callTool({ name: args.fields ? "submit" : "navigate", arguments: args });
      expect(sc(res)).toMatchObject({ outcome: "rejected", title: "Invalid arguments" });
      expect(text(res)).toMatch(/invalid_arguments/);
      expect(text(res)).toMatch(named);
      expect(JSON.stringify(res).length).toBeLessThan(3_000);
      const rows = await rowsAfter(before);
      expect(rows.map((r) => r.outcome)).toEqual(["rejected"]);
      expect(JSON.stringify(rows[0]?.arguments).length).toBeLessThan(4_000);
    }
    expect(await actionCount()).toBe(actionsBefore);
  });

  it("a value that fails its field's schema is kept only when small; a large one is a marker that stays refused", async () => {
    // Small: kept as sent, so support sees the typo.
    const small = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: "oops" } },
      }),
    ) as Outcome;
    expect(small.validation_errors).toEqual([
      expect.objectContaining({ field: "items", code: "invalid_value" }),
    ]);
    const smallRow = await w.db.action.findUniqueOrThrow({ where: { id: String(small.action_id) } });
    expect((smallRow.state as { values: Record<string, unknown> }).values.items).toBe("oops");

    // Large (inside the argument bounds, but not an array): refused, and not stored.
    const large = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: "x".repeat(30_000) } },
      }),
    ) as Outcome;
    expect(large.validation_errors).toEqual([
      expect.objectContaining({ field: "items", code: "invalid_value" }),
    ]);
    const largeRow = await w.db.action.findUniqueOrThrow({ where: { id: String(large.action_id) } });
    expect(JSON.stringify(largeRow.state).length).toBeLessThan(5_000);
    expect(JSON.stringify(largeRow.state)).not.toContain("x".repeat(300));

    // The refusal holds until the field is sent again: a patch of another field does not pass it.
    const other = sc(
      await client.callTool({
        name: "advance_action",
        arguments: { action_id: large.action_id, version: large.version, patch: { payment_type: "balance" } },
      }),
    ) as Outcome;
    expect(other.validation_errors).toEqual([
      expect.objectContaining({
        field: "items",
        code: "invalid_value",
        message: expect.stringMatching(/send items again/),
      }),
    ]);
    const fixed = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: large.action_id,
          version: other.version,
          patch: { items: [{ product_id: "prod_mug", quantity: 1 }] },
        },
      }),
    ) as Outcome;
    expect(fixed.validation_errors ?? []).not.toContainEqual(expect.objectContaining({ field: "items" }));
    // Items now hold: the flow moves on to the address.
    expect(fixed).toMatchObject({
      outcome: "input_required",
      node: "ADDRESS",
      applied: ["items"],
      missing: ["address_id"],
    });
  });

  it("oversized values for later nodes are refused per field at once; what is stored stays small", async () => {
    // The flow stops at the address (unknown). The fields after it are shape-checked now (as
    // advance would): each inside the argument bounds, none a valid value. What failed is kept
    // at most as a short marker, so no action holds the 80 KB the agent sent. (The 64 KB state
    // ceiling behind this is unit-tested in test/engine/state-ceiling.test.ts.)
    const heavy = {
      address_id: "nope",
      shipping_method: "s".repeat(30_000),
      coupon_code: "c".repeat(32_000),
      payment_type: "p".repeat(20_000),
    };
    const refused = sc(
      await client.callTool({ name: "start_action", arguments: { capability: "checkout", patch: heavy } }),
    ) as Outcome;
    expect(refused.outcome).toBe("input_required");
    expect(
      (refused.validation_errors as Array<{ field: string; code: string }>).map((e) => e.field).sort(),
    ).toEqual(expect.arrayContaining(["coupon_code", "payment_type", "shipping_method"]));
    // The valid one waits for its node; the invalid ones are errors now, not pending.
    expect(refused.pending).toEqual(["address_id"]);
    expect(await largestState()).toBeLessThan(10_000);

    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: [{ product_id: "prod_mug", quantity: 1 }] } },
      }),
    );
    const advanced = sc(
      await client.callTool({
        name: "advance_action",
        arguments: { action_id: started.action_id, version: started.version, patch: heavy },
      }),
    ) as Outcome;
    expect(advanced.outcome).toBe("input_required");
    expect((advanced.validation_errors as Array<{ field: string }>).map((e) => e.field)).toEqual(
      expect.arrayContaining(["coupon_code", "payment_type", "shipping_method"]),
    );
    expect(await largestState()).toBeLessThan(10_000);
    expect(MAX_STATE_CHARS).toBeGreaterThan(10_000);
  });
});
