import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILT_IN_CONNECTORS } from "@/server/connectors/connector-registry";
import { helpdeskSummary } from "@/server/connectors/helpdesk/helpdesk-summary-fields";
import type { ShownField } from "@/server/connectors/sdk/decision-summary";
import { SHOP_SUMMARY_FIELDS } from "@/server/connectors/shop/shop-summary-fields";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

function keysOf(fields: Record<string, ShownField>): string[] {
  return Object.entries(fields).flatMap(([k, f]) => [k, ...(f.items ? keysOf(f.items) : [])]);
}

/**
 * DESIGN: nothing above server/connectors/ names a business entity (issue 19: the titles, money
 * keys and labels the console kept for the demo connectors moved into their declarations). The
 * words are the demo summaries' own keys, read from those declarations, so a key added there is
 * checked here too: compound names (`shipping_price`, `cross_team`) and the few single words
 * that only a shop or a helpdesk would use.
 */
describe("the console, the faces, the gateway, the engine and browse name no demo connector's fields", () => {
  const words = [
    ...new Set([
      ...keysOf(SHOP_SUMMARY_FIELDS),
      ...keysOf(helpdeskSummary("").fields),
      "subtotal",
      "coupon",
      "assignee",
      "refund_amount",
      "unit_price",
    ]),
  ].filter((w) => w.includes("_") || ["subtotal", "coupon", "discount", "assignee"].includes(w));
  const files = ["app", "components", "mcp", "server/gateway", "server/engine", "server/browse"].flatMap(
    sources,
  );

  it("has words to look for and files to look in", () => {
    expect(words).toEqual(expect.arrayContaining(["shipping_price", "balance_before", "cross_team"]));
    expect(files.length).toBeGreaterThan(100);
  });

  it("finds none of them", () => {
    const hits = files.flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return words.filter((w) => new RegExp(`\\b${w}\\b`).test(text)).map((w) => `${file}: ${w}`);
    });
    expect(hits).toEqual([]);
  });
});

/**
 * What a person reads in the console and an agent reads from the faces is named by the
 * installed connectors' declarations (capability titles, entities, schemes), never by copy that
 * knows the demo: a new connector's capability shows its own title, and the search box does not
 * promise "orders, customers" to a tenant that has neither. The words are the demo connectors'
 * own capability ids, entity names (plural, as copy says them) and URI schemes, read from their
 * declarations, so a capability or entity added to the demo is checked here too; plus the few
 * money words the copy used to promise ("payment; refund").
 */
describe("the console and the faces (app/, components/, mcp/) name no demo capability, entity or scheme", () => {
  const demo = BUILT_IN_CONNECTORS.filter((c) => c.id === "shop" || c.id === "helpdesk");
  const words = [
    ...demo.flatMap((c) => c.capabilities.map((x) => x.id)),
    ...demo.flatMap((c) => c.entities.map((e) => `${e.name}s`)),
    "customers?",
    "refunds?",
    "payments?",
  ];
  const schemes = demo.map((c) => `${c.scheme}://`);
  const files = ["app", "components", "mcp"].flatMap(sources);

  it("has words to look for and files to look in", () => {
    expect(demo).toHaveLength(2);
    expect(words).toEqual(expect.arrayContaining(["checkout", "assign_ticket", "orders", "tickets"]));
    expect(schemes).toEqual(["shop://", "helpdesk://"]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("finds none of them", () => {
    const hits = files.flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return [
        ...words.filter((w) => new RegExp(`\\b${w}\\b`, "i").test(text)),
        ...schemes.filter((s) => text.includes(s)),
      ].map((w) => `${file}: ${w}`);
    });
    expect(hits).toEqual([]);
  });
});
