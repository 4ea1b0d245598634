import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerConnector, resetInstalledConnectors } from "@/server/connectors/connector-registry";
import { defineConnector } from "@/server/connectors/sdk";
import { trackShipment } from "@/server/connectors/shop/capabilities/track-shipment";
import { createPermissionRule, deletePermissionRule } from "@/server/gateway/console/manage-permissions";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23: a model that read a capability's title ("After-sales request") can start it by that
 * title, a name that fits no capability is answered with the nearest ones (never "nothing is
 * offered"), pages show a capability's id beside its title, and every capability line says
 * whether a person must approve it, from the decision the gateway enforces for this caller.
 * Real MCP client over HTTP, real gateway and legacy service, a demo and an imported connector.
 */
describe("capabilities by name, and who approves them (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w, { grants: [{ role: "admin", pattern: "legacy://**" }] });
  }, 60_000);
  afterAll(async () => {
    resetInstalledConnectors();
    await w?.close();
  });
  beforeEach(async () => w.legacy.reset());

  const adamConsole = (): ConsoleContext => ({
    sessionId: "test",
    tenantId: "acme",
    tenantName: "Acme",
    userId: w.person.adam.userId as string,
    email: "adam@acme.test",
    name: "Adam",
    role: "admin",
  });

  const call = async (key: string, name: string, args: Record<string, unknown>) =>
    (await w.connect(key)).callTool({ name, arguments: args });

  it("a capability's exact title starts it, in any case and spacing (demo and imported)", async () => {
    for (const name of ["After-sales request", "  after-sales   REQUEST "]) {
      const result = await call(w.keys.alice, "start_action", {
        capability: name,
        entity_id: "ord_exchange",
      });
      expect(sc(result), text(result)).toMatchObject({ capability: "after_sales" });
      expect(sc(result).reason).not.toBe("invalid_arguments");
    }
    const imported = await call(w.keys.adam, "start_action", {
      capability: "send a request to an imported system",
      dry_run: true,
    });
    expect(sc(imported), text(imported)).toMatchObject({ capability: "api_request" });
  });

  it("a name that is no capability's id or exact title names the nearest ones by id and title, never a dead end", async () => {
    const actionsBefore = await w.db.action.count();
    for (const name of ["After sales request", "after_sale", "After-sales request!"]) {
      const result = await call(w.keys.alice, "start_action", {
        capability: name,
        entity_id: "ord_exchange",
      });
      const shown = text(result);
      expect(shown).not.toMatch(/nothing is offered/);
      expect(sc(result).action_id).toBeUndefined();
      if (name !== "After-sales request!") {
        // Never fuzzy: the nearest is named, not started.
        expect(sc(result).reason).toBe("unknown_capability");
        expect(shown).toContain("`after_sales` (After-sales request)");
        expect(sc(result).next_actions).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ tool: "start_action", args: { capability: "after_sales" } }),
          ]),
        );
      } else expect(sc(result).next_actions.map((n) => n.tool)).toContain("search_capabilities");
    }
    // The imported systems' capability is found by its words too.
    const imported = await call(w.keys.adam, "start_action", {
      capability: "Send a request to an imported API",
    });
    expect(text(imported)).toContain("`api_request` (Send a request to an imported system)");
    expect(await w.db.action.count()).toBe(actionsBefore);
  });

  it("a title two connectors' capabilities share is refused with both ids, starting neither", async () => {
    const parcels = defineConnector({
      id: "parcels",
      title: "Parcels",
      scheme: "parcels",
      description: "A carrier's parcels.",
      secrets: [],
      createAdapter: () => ({}),
      healthPath: "/health",
      checkConnection: async () => ({ ok: true, status: 200 }),
      capabilities: [{ ...trackShipment, id: "track_parcel", connector: "parcels" }],
      entities: [],
      routes: [],
    });
    expect(registerConnector(parcels)).toEqual({ ok: true });
    try {
      const result = await call(w.keys.alice, "start_action", { capability: "track shipment" });
      expect(sc(result)).toMatchObject({ outcome: "rejected", reason: "ambiguous_capability" });
      expect(text(result)).toContain("`track_shipment`");
      expect(text(result)).toContain("`track_parcel`");
      expect(text(result)).not.toMatch(/nothing is offered/);
      expect(
        await w.db.action.count({ where: { capability: { in: ["track_shipment", "track_parcel"] } } }),
      ).toBe(0);
    } finally {
      resetInstalledConnectors();
    }
  });

  it("a record page names each form by its capability's id, and whether a person must approve it", async () => {
    const delivered = text(await call(w.keys.alice, "navigate", { uri: "shop://order/ord_exchange" }));
    const afterSales = delivered.split("\n").find((l) => l.startsWith("- [after_sales]("));
    expect(afterSales).toMatch(/approval: the user$/);
    const pending = text(await call(w.keys.alice, "navigate", { uri: "shop://order/ord_pending" }));
    const address = pending.split("\n").find((l) => l.startsWith("- [change_delivery_address]("));
    expect(address).toMatch(/ · no approval$/);
    expect(pending.split("\n").find((l) => l.startsWith("- [pay_order]("))).toMatch(/approval: the user$/);
  });

  it("search says up front which capabilities run on the agent's word and which wait for a person", async () => {
    // "buy a mug" asks for a new order (set BN): the address change of an order there is needs
    // words of its own.
    const found = async (query: string) => text(await call(w.keys.alice, "search_capabilities", { query }));
    const line = (text: string, id: string) => text.split("\n").find((l) => l.includes(`\`${id}\``)) ?? "";
    const change = await found("change the delivery address of my kettle order to my home");
    expect(line(change, "change_delivery_address")).toMatch(/no approval: start_action runs it/);
    expect(line(await found("buy a mug and deliver it to my home address"), "checkout")).toMatch(
      /approval: the user/,
    );
    // The browse face's search lists capabilities too, with the same words.
    const browsed = text(
      await call(w.keys.alice, "search", { query: "exchange the tee I received for size L" }),
    );
    expect(browsed.split("\n").find((l) => l.includes("`after_sales`"))).toMatch(/approval: the user/);
    const imported = text(
      await call(w.keys.adam, "search_capabilities", { query: "send a request to an imported system" }),
    );
    expect(imported.split("\n").find((l) => l.includes("`api_request`"))).toMatch(/approval: the user/);
  });

  it("a start that needs no approval, on the record the words name, runs in that call: no key, no confirm_action", async () => {
    // Not the words of the admin's-rule test below: within ten minutes they would be this request.
    const args = {
      capability: "change_delivery_address",
      intent: "Send my kettle order to my home address instead",
    };
    const first = await call(w.keys.alice, "start_action", args);
    expect(sc(first), text(first)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(text(first)).not.toMatch(/confirm_action|idempotency_key/);
  });

  it("an admin's rule that asks before a confirm is what the words say, not the capability's own flag", async () => {
    const rule = await createPermissionRule(w.db, adamConsole(), {
      subjectType: "role",
      subjectId: "member",
      verb: "confirm",
      pattern: "capability:change_delivery_address",
      decision: "ask",
    });
    expect(rule.ok, JSON.stringify(rule)).toBe(true);
    try {
      const found = text(
        await call(w.keys.alice, "search_capabilities", { query: "deliver my order to my home address" }),
      );
      const line = found.split("\n").find((l) => l.includes("`change_delivery_address`")) ?? "";
      expect(line).not.toMatch(/no approval/);
      expect(line).toMatch(/approval: an admin's permission/);
      const page = text(await call(w.keys.alice, "navigate", { uri: "shop://order/ord_pending" }));
      expect(page.split("\n").find((l) => l.startsWith("- [change_delivery_address]("))).toMatch(
        /approval: an admin's permission/,
      );
      const started = sc(
        await call(w.keys.alice, "start_action", {
          capability: "change_delivery_address",
          intent: "Please deliver my kettle order to my home address instead",
        }),
      );
      // The confirm asks an admin first: nothing runs at the start, the action waits.
      expect(started).toMatchObject({ status: "open", effect: null });
      // Only the words changed: no permission request was filed by reading them.
      expect(await w.db.permissionRequest.count()).toBe(0);
    } finally {
      if (rule.ok) await deletePermissionRule(w.db, adamConsole(), rule.value.id);
    }
    // A rule that denies the start is said too, never "approval: the user" for what cannot start.
    const deny = await createPermissionRule(w.db, adamConsole(), {
      subjectType: "role",
      subjectId: "member",
      verb: "start",
      pattern: "capability:checkout",
      decision: "deny",
    });
    expect(deny.ok, JSON.stringify(deny)).toBe(true);
    try {
      const found = text(
        await call(w.keys.alice, "search_capabilities", {
          query: "buy a mug and deliver it to my home address",
        }),
      );
      expect(found.split("\n").find((l) => l.includes("`checkout`"))).toMatch(
        /not allowed: an admin's rule denies it/,
      );
    } finally {
      if (deny.ok) await deletePermissionRule(w.db, adamConsole(), deny.value.id);
    }
  });

  it("a permission asked for by a capability's title is stored for its id; a title that names none is refused", async () => {
    const sent = await call(w.keys.alice, "submit", {
      uri: "signpost://permissions/request",
      fields: { verb: "start", target: "After-sales request", reason: "the user wants an exchange" },
    });
    expect(sc(sent).outcome, text(sent)).toBe("applied");
    const stored = await w.db.permissionRequest.findMany({
      where: { tenantId: "acme" },
      select: { target: true },
    });
    expect(stored.map((r) => r.target)).toEqual(["capability:after_sales"]);
    const unknown = await call(w.keys.alice, "submit", {
      uri: "signpost://permissions/request",
      fields: { verb: "start", target: "After sales request" },
    });
    expect(sc(unknown).outcome).toBe("rejected");
    expect(await w.db.permissionRequest.count({ where: { tenantId: "acme" } })).toBe(1);
  });
});
