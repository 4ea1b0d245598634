import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compactSchema } from "@/mcp/compact-schema";
import { startActionInputSchema } from "@/server/gateway/operations/operation-schemas";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Outcome = ReturnType<typeof sc> & {
  reason?: string;
  validation_errors?: Array<{ field: string; code: string; message: string }>;
};

/**
 * Arguments that break a tool's input schema reach Signpost (not only the SDK): the agent gets
 * the typed `rejected` / `invalid_arguments` outcome naming each field, and support's monitor
 * gets an audit row for every such attempt, identity fields above all.
 */
describeEachProvider("invalid tool arguments over MCP (%s)", (provider) => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  /** Rows written since `seq`, newest last. */
  async function rowsAfter(seq: number) {
    return w.db.auditEvent.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: "asc" } });
  }
  async function lastSeq(): Promise<number> {
    return (await w.db.auditEvent.findFirst({ orderBy: { seq: "desc" } }))?.seq ?? 0;
  }

  it("tools/list still publishes every tool's strict input schema (additionalProperties: false)", async () => {
    const client = await w.connect(w.keys.alice, { faces: "actions,browse" });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "search_capabilities",
        "start_action",
        "get_context",
        "advance_action",
        "confirm_action",
        "verify_action",
        "recover_action",
        "cancel_action",
        "search",
        "navigate",
        "submit",
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    // The shape is listed (types, required fields); the bounds are the gateway's to enforce.
    const navigate = tools.find((t) => t.name === "navigate");
    expect(navigate?.inputSchema).toEqual({
      type: "object",
      required: ["uri"],
      properties: { uri: { type: "string" } },
      additionalProperties: false,
    });
    const advance = tools.find((t) => t.name === "advance_action");
    expect(advance?.inputSchema).toMatchObject({ properties: { version: { type: "integer" } } });
  });

  it("a bound left out of the listing still holds: a version below 1 is a typed refusal naming the field", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "advance_action",
        arguments: { action_id: "act_x", version: 0, patch: {} },
      }),
    ) as Outcome;
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(out.validation_errors?.map((e) => e.field)).toEqual(["version"]);
  });

  it("an idempotency key's minimum length is listed, and a short key's refusal states the rule with an example", async () => {
    const client = await w.connect(w.keys.alice);
    const { tools } = await client.listTools();
    for (const name of ["start_action", "advance_action", "confirm_action"]) {
      const schema = tools.find((t) => t.name === name)?.inputSchema as {
        properties: Record<string, Record<string, unknown>>;
      };
      expect(schema.properties.idempotency_key, name).toMatchObject({ type: "string", minLength: 8 });
      expect(JSON.stringify(schema), name).not.toMatch(/listedBounds|maxLength|pattern/);
    }
    const shown = text(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: "act_x", idempotency_key: "k1" },
      }),
    );
    expect(shown).toMatch(
      /idempotency_key: too short: 8 to 128 letters, digits or _ \. : - \(e\.g\. [\w.:-]{8,}\)/,
    );
  });

  it("a field that is merely unknown is named as unknown, with no word of credentials", async () => {
    const client = await w.connect(w.keys.alice);
    const res = await client.callTool({
      name: "get_context",
      arguments: { entity_type: "order", entity_id: "ord_paid" },
    });
    const out = sc(res) as Outcome;
    expect(out.validation_errors).toContainEqual(
      expect.objectContaining({ field: "entity_type", code: "unknown_field" }),
    );
    const said = out.validation_errors?.find((e) => e.field === "entity_type")?.message ?? "";
    expect(said).toMatch(/not a field of this call/);
    expect(said).not.toMatch(/credential/);
  });

  it("an identity field on start_action is rejected / unknown_field, names the field and is audited", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await lastSeq();
    const res = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", tenant_id: "globex", user_id: "usr_bob" },
    });
    expect(res.isError ?? false).toBe(false);
    const out = sc(res) as Outcome;
    expect(out).toMatchObject({
      outcome: "rejected",
      reason: "invalid_arguments",
      retryable: false,
      next_actions: [],
    });
    expect(out.validation_errors).toEqual([
      expect.objectContaining({ code: "unknown_field", message: expect.stringMatching(/credential/) }),
    ]);
    expect(out.validation_errors?.[0]?.field.split(", ").sort()).toEqual(["tenant_id", "user_id"]);
    expect(text(res)).toMatch(/^rejected: /);

    const rows = await rowsAfter(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operation: "action.started",
      outcome: "rejected",
      face: "actions",
      tenantId: "acme",
    });
    expect(rows[0]?.agentId).toBeTruthy();
    expect(rows[0]?.arguments).toMatchObject({ tenant_id: "globex", user_id: "usr_bob" });
    // Nothing was started for anyone.
    expect(await w.db.action.count({ where: { tenantId: "globex" } })).toBe(0);
  });

  it("a wrong type for version on advance_action is rejected / invalid_value, and audited", async () => {
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid" },
      }),
    );
    const actionId = String(started.action_id);
    const before = await lastSeq();
    const res = await client.callTool({
      name: "advance_action",
      arguments: { action_id: actionId, version: "1", patch: { reason: "changed my mind" } },
    });
    const out = sc(res) as Outcome;
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(out.validation_errors).toEqual([
      expect.objectContaining({ field: "version", code: "invalid_value" }),
    ]);
    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.operation, r.outcome])).toEqual([["action.advanced", "rejected"]]);
    // The action did not move.
    const now = sc(await client.callTool({ name: "get_context", arguments: { action_id: actionId } }));
    expect(now.version).toBe(started.version);
  });

  it("a missing required field is rejected / invalid_value naming it", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await lastSeq();
    const res = await client.callTool({ name: "confirm_action", arguments: { action_id: "act_missing" } });
    const out = sc(res) as Outcome;
    expect(out).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(out.validation_errors).toEqual([
      expect.objectContaining({ field: "idempotency_key", code: "invalid_value" }),
    ]);
    const empty = sc(await client.callTool({ name: "start_action", arguments: {} })) as Outcome;
    expect(empty.validation_errors?.map((e) => e.field)).toContain("capability");
    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.operation, r.outcome])).toEqual([
      ["action.confirmed", "rejected"],
      ["action.started", "rejected"],
    ]);
  });

  it("approval_status (the confirmation screen's tool) refuses bad arguments typed, small and audited", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await lastSeq();
    // A wrong type: the gateway's typed refusal, not the SDK's bare error.
    const wrongType = await client.callTool({ name: "approval_status", arguments: { action_id: 5 } });
    expect(wrongType.isError ?? false).toBe(false);
    expect(sc(wrongType)).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect((sc(wrongType) as Outcome).validation_errors).toEqual([
      expect.objectContaining({ field: "action_id" }),
    ]);
    // 100,000 unknown keys: refused by the bounds before any parse; the answer stays small
    // (the SDK's check used to echo every key back, about 2 MB) and the row keeps a bounded copy.
    const flood = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    const flooded = await client.callTool({
      name: "approval_status",
      arguments: { action_id: "act_x", ...flood },
    });
    expect(sc(flooded)).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(JSON.stringify(flooded).length).toBeLessThan(20_000);
    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.operation, r.outcome, r.face])).toEqual([
      ["approval.status_read", "rejected", "actions"],
      ["approval.status_read", "rejected", "actions"],
    ]);
    expect(JSON.stringify(rows[1]?.arguments).length).toBeLessThan(8_000);
  });

  it("a retried input_required round with an identity field is refused without spending its requestState", async () => {
    const client = new Client(
      { name: "manual", version: "1.0.0" },
      {
        versionNegotiation: { mode: "auto" },
        capabilities: { elicitation: { form: {}, url: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(w.endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${w.keys.alice}` } },
      }),
    );
    const call = async (params: Record<string, unknown>) =>
      (await client.callTool(params as never, { allowInputRequired: true } as never)) as Record<
        string,
        unknown
      >;
    try {
      const first = await call({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid" },
      });
      expect(first.resultType).toBe("input_required");
      const state = String(first.requestState);
      const answer = { fields: { action: "accept", content: { reason: "changed my mind" } } };
      const forged = await call({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid", tenant_id: "globex" },
        requestState: state,
        inputResponses: answer,
      });
      expect(sc(forged)).toMatchObject({
        outcome: "rejected",
        reason: "invalid_arguments",
        validation_errors: [expect.objectContaining({ field: "tenant_id", code: "unknown_field" })],
      });
      // The same round, with correct arguments, still goes through once.
      const ok = await call({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_paid" },
        requestState: state,
        inputResponses: answer,
      });
      expect(sc(ok)).toMatchObject({
        requires_confirmation: true,
        summary: expect.objectContaining({ reason: "changed my mind" }),
      });
    } finally {
      await client.close();
    }
  });

  it("browse navigate with a 2000-character uri is a rejected page, audited as browse.navigated", async () => {
    const client = await w.connect(w.keys.alice, { faces: "browse" });
    const before = await lastSeq();
    const uri = `shop://orders/${"x".repeat(1986)}`;
    expect(uri).toHaveLength(2000);
    const res = await client.callTool({ name: "navigate", arguments: { uri } });
    expect(res.isError ?? false).toBe(false);
    const page = sc(res) as unknown as { uri: string; title: string; outcome: string; links: string[] };
    expect(page).toMatchObject({ outcome: "rejected", title: "Invalid arguments" });
    expect(page.uri.length).toBeLessThanOrEqual(200);
    expect(page.links).toContain("signpost://start");
    expect(text(res)).toMatch(/invalid_arguments/);
    expect(text(res)).toMatch(/`uri` \(invalid_value\)/);
    expect(text(res)).not.toContain("x".repeat(300));

    const rows = await rowsAfter(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: "browse.navigated", outcome: "rejected", face: "browse" });
    expect(rows[0]?.message).toMatch(/uri/);
    // The row keeps what was tried, bounded.
    expect(JSON.stringify(rows[0]?.arguments).length).toBeLessThan(400);
  });

  it("browse submit without fields, and with an identity field, are rejected pages, audited as browse.submitted", async () => {
    const client = await w.connect(w.keys.alice, { faces: "browse" });
    const before = await lastSeq();
    const missing = await client.callTool({ name: "submit", arguments: { uri: "shop://checkout" } });
    expect(sc(missing)).toMatchObject({ uri: "shop://checkout", outcome: "rejected" });
    expect(text(missing)).toMatch(/`fields` \(invalid_value\)/);

    const identity = await client.callTool({
      name: "submit",
      arguments: { uri: "shop://checkout", fields: { payment_type: "balance" }, tenant_id: "globex" },
    });
    expect(sc(identity)).toMatchObject({ outcome: "rejected" });
    expect(text(identity)).toMatch(/`tenant_id` \(unknown_field\)/);

    const empty = await client.callTool({ name: "search", arguments: { query: "" } });
    expect(sc(empty)).toMatchObject({ outcome: "rejected" });

    const rows = await rowsAfter(before);
    expect(rows.map((r) => [r.operation, r.outcome, r.face])).toEqual([
      ["browse.submitted", "rejected", "browse"],
      ["browse.submitted", "rejected", "browse"],
      ["browse.searched", "rejected", "browse"],
    ]);
    expect(rows[1]?.arguments).toMatchObject({ tenant_id: "globex" });
    // Nothing was started from the refused submits.
    expect(rows.some((r) => r.operation === "action.started")).toBe(false);
  });

  it("a secret in a refused submit never reaches the audit row or the page", async () => {
    const adam = await w.connect(w.keys.adam, { faces: "browse" });
    const before = await lastSeq();
    const res = await adam.callTool({
      name: "submit",
      arguments: {
        uri: "config://shop",
        fields: { name: "api_key", value: "lk_refused_secret_123456" },
        extra: true,
      },
    });
    expect(sc(res)).toMatchObject({ outcome: "rejected" });
    expect(text(res)).not.toContain("lk_refused_secret_123456");
    const rows = await rowsAfter(before);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain("lk_refused_secret_123456");
  });
});

describe("compactSchema validation modes", () => {
  it("handler mode passes any JSON object through, refuses non-objects, and lists the schema's shape without its bounds", async () => {
    const strict = compactSchema(startActionInputSchema);
    const handler = compactSchema(startActionInputSchema, { validation: "handler" });
    const full = strict["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<string, unknown>;
    const shape = handler["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as Record<
      string,
      unknown
    >;
    // The same fields, types and strictness; the lengths and patterns are the handler's to check.
    expect(Object.keys(shape.properties as object)).toEqual(Object.keys(full.properties as object));
    expect(shape.additionalProperties).toBe(false);
    expect(JSON.stringify(full)).toMatch(/"pattern"|"maxLength"/);
    expect(JSON.stringify(shape)).not.toMatch(/"pattern"|"maxLength"|"minimum"/);
    // Only the bound a field marks as listed stays: the idempotency key's minimum.
    expect(JSON.stringify(shape).match(/"minLength":\d+/g)).toEqual(['"minLength":8']);
    const wrong = { capability: "checkout", tenant_id: "globex" };
    expect((await strict["~standard"].validate(wrong)).issues?.length).toBeGreaterThan(0);
    expect(await handler["~standard"].validate(wrong)).toEqual({ value: wrong });
    for (const value of [["checkout"], "checkout", 1, null]) {
      expect((await handler["~standard"].validate(value)).issues, JSON.stringify(value)).toEqual([
        { message: "arguments must be a JSON object" },
      ]);
    }
  });
});
