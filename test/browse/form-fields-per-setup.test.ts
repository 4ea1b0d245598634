import { describe, expect, it } from "vitest";
import { connectors } from "@/server/connectors/connector-registry";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import type { AnyConnector } from "@/server/connectors/sdk/define-connector";

/**
 * A form's fields, shown beside every link to the form, are worked out once per list of
 * connectors (a tenant's, until its setup changes), not on every page: a list that changed
 * (another capability definition, an import) is a new list, whose fields are its own.
 */
describe("a form's fields follow the tenant's connectors", () => {
  const installed = connectors();
  const shop = installed.find((c) => c.scheme === "shop") as AnyConnector;
  const route = shop.routes.find((r) => r.pattern === "shop://order/{id}/address");
  const backendOn = (among: readonly AnyConnector[]) =>
    ({ connectors: async () => among }) as unknown as BrowseBackend;

  it("one list answers the same fields every time; a changed list answers its own", async () => {
    if (!route?.fields) throw new Error("the address form declares its fields");
    const first = await route.fields(backendOn(installed));
    expect(first?.map((f) => f.name)).toEqual(["address_id", "user_words"]);
    expect(await route.fields(backendOn(installed))).toEqual(first);

    // The same capability, now a read: its form takes no user_words (they fill a change's fields).
    const approved = installed.map((c) =>
      c === shop
        ? {
            ...c,
            capabilities: c.capabilities.map((cap) =>
              cap.id === "change_delivery_address"
                ? { ...cap, policy: { ...cap.policy, effect: "read" as const } }
                : cap,
            ),
          }
        : c,
    );
    expect((await route.fields(backendOn(approved)))?.map((f) => f.name)).toEqual(["address_id"]);
    // And the first list still answers what it did.
    expect((await route.fields(backendOn(installed)))?.map((f) => f.name)).toEqual([
      "address_id",
      "user_words",
    ]);
  });

  it("the fields given out cannot be changed by whoever reads them", async () => {
    const fields = await route?.fields?.(backendOn(installed));
    expect(Object.isFrozen(fields)).toBe(true);
  });
});
