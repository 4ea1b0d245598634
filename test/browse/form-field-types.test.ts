import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { BUILT_IN_CONNECTORS, capabilityRegistry } from "@/server/connectors/connector-registry";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Records each connector's forms are opened on, by who may open them. */
const RECORDS: Record<string, { who: "alice" | "sam"; ids: string[] }> = {
  shop: { who: "alice", ids: ["ord_delivered", "ord_pending", "ord_exchange", "ord_transit"] },
  helpdesk: { who: "sam", ids: ["tkt_3", "tkt_1", "tkt_2"] },
};

/** The fields of a form block: name → the type shown and the rest of its line. */
function formFields(markdown: string): Map<string, { type: string; line: string }> {
  const out = new Map<string, { type: string; line: string }>();
  const block = /```yaml\n([\s\S]*?)```/.exec(markdown)?.[1] ?? "";
  for (const line of block.split("\n")) {
    const m = /^ {2}([a-z][a-z0-9_]*): .*? {2}# (?:required|optional) — (.+?)(?: — (.*))?$/.exec(line);
    if (m?.[1] && m[2]) out.set(m[1], { type: m[2], line: m[3] ?? "" });
  }
  return out;
}

/** The type a field's schema asks for, read straight from its JSON Schema (not the renderer's code). */
function expected(schema: z.ZodType): { type: string; values?: string[] } {
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<string, unknown>;
  if (Array.isArray(json.enum)) return { type: "enum", values: json.enum.map(String) };
  return { type: String(json.type) };
}

/**
 * Every form types its fields from the capability's schema (issue 23: a form said
 * `item_ids: "" # optional — string` and the submit was refused "expected array"): lists,
 * numbers, booleans and enums (with their values), on every capability form of every built-in
 * connector and on an imported system's forms. Real MCP client over HTTP.
 */
describe("form fields are typed from the capability's schema (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w, { grants: [{ role: "support", pattern: "legacy://v1/tickets/*/update" }] });
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("every capability form of every built-in connector shows each field's own type", async () => {
    const registry = capabilityRegistry();
    const checked = new Map<string, string>();
    for (const connector of BUILT_IN_CONNECTORS) {
      const records = RECORDS[connector.id];
      if (!records) continue;
      const client = await w.connect(w.keys[records.who], { faces: "browse" });
      for (const route of connector.routes.filter((r) => r.submit)) {
        const uris = route.pattern.includes("{id}")
          ? records.ids.map((id) => route.pattern.replace("{id}", id))
          : [route.pattern];
        for (const uri of uris) {
          const page = text(await client.callTool({ name: "navigate", arguments: { uri } }));
          const capability = registry.get(/Capability: `([a-z_]+)`/.exec(page)?.[1] ?? "");
          const fields = formFields(page);
          if (!capability || !fields.size) continue;
          for (const node of capability.nodes)
            for (const [name, schema] of Object.entries(node.fields ?? {})) {
              const shown = fields.get(name);
              if (!shown) continue;
              const want = expected(schema);
              if (want.type === "array") expect(shown.type, `${uri} ${name}`).toMatch(/^array<.+>$/);
              else expect(shown.type, `${uri} ${name}`).toBe(want.type);
              // Every value is on the field's line (its description's list, or "one of: …").
              for (const value of want.values ?? []) expect(shown.line, `${uri} ${name}`).toContain(value);
              checked.set(`${capability.id}.${name}`, shown.type);
            }
        }
      }
    }
    // The fields the issue saw mislabelled, and one of each other kind, were among those checked.
    expect(Object.fromEntries(checked)).toMatchObject({
      "after_sales.item_ids": "array<string>",
      "after_sales.kind": "enum",
      "after_sales.amount": "integer",
      "checkout.items": "array<{product_id, quantity}>",
      "checkout.payment_type": "enum",
      "comment_ticket.internal": "boolean",
      "change_ticket_priority.priority": "enum",
    });
  });

  it("a list sent as the form says is taken: the after-sales request reaches its person's approval", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://order/ord_delivered/after-sales",
        fields: { kind: "return_refund", reason: "It is too loud", item_ids: ["ord_delivered_item_1"] },
      },
    });
    expect(text(out)).not.toMatch(/expected array/);
    expect(text(out)).toMatch(/ · awaiting_approval · version \d/);
  });

  it("an imported system's write form is typed by the same reading", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const uri = "legacy://v1/tickets/tkt_2/update";
    const form = formFields(text(await sam.callTool({ name: "navigate", arguments: { uri } })));
    expect(form.get("priority")).toMatchObject({ type: "enum" });
    expect(form.get("priority")?.line).toMatch(/one of: low, normal, high, urgent/);
    // A nullable text (`anyOf: [string, null]`) is text, not "any".
    expect(form.get("assignee_id")).toMatchObject({ type: "string" });
    const submitted = await sam.callTool({
      name: "submit",
      arguments: { uri, fields: { priority: "high" } },
    });
    expect(text(submitted)).toMatch(/ · awaiting_approval · version \d/);
  });
});
