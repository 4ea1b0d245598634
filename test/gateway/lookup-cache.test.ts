import { describe, expect, it } from "vitest";
import { createLookupCache, LOOKUP_TTL_MS, type LookupScope } from "@/server/gateway/lookup-cache";

/**
 * Issue 22: the connector lookups the gateway remembers (who a person is in the system beneath)
 * are bounded in size and time and never shared across tenants, connectors, credentials or people.
 */
const alice: LookupScope = {
  tenantId: "acme",
  connector: "shop",
  userId: "u_alice",
  baseUrl: "http://shop.internal",
  secrets: { api_key: "k1" },
  settings: {},
};

function counted() {
  let loads = 0;
  return {
    load: async () => {
      loads++;
      return { id: `cus_${loads}` };
    },
    loads: () => loads,
  };
}

describe("connector lookup cache", () => {
  it("two lookups of one key make one load; callers waiting together share it", async () => {
    const cache = createLookupCache();
    const lookups = cache.scoped(alice);
    const { load, loads } = counted();
    const [a, b] = await Promise.all([lookups.remember("k", load), lookups.remember("k", load)]);
    expect(await lookups.remember("k", load)).toBe(a);
    expect(b).toBe(a);
    expect(loads()).toBe(1);
  });

  it("another tenant, connector, person, address, secret or connected account never gets the entry", async () => {
    const cache = createLookupCache();
    const { load, loads } = counted();
    await cache.scoped(alice).remember("k", load);
    const others: LookupScope[] = [
      { ...alice, tenantId: "globex" },
      { ...alice, connector: "helpdesk" },
      { ...alice, userId: "u_sam" },
      { ...alice, baseUrl: "http://other-shop.internal" },
      { ...alice, secrets: { api_key: "k2" } },
      { ...alice, settings: { region: "eu" } },
      { ...alice, personToken: "t1" },
    ];
    for (const other of others) await cache.scoped(other).remember("k", load);
    expect(loads()).toBe(1 + others.length);
    // The same scope built again (the next call's adapter) still finds it.
    await cache.scoped({ ...alice, secrets: { api_key: "k1" } }).remember("k", load);
    expect(loads()).toBe(1 + others.length);
  });

  it(`an entry is used for ${LOOKUP_TTL_MS / 1000} s at most: a mapping changed upstream is seen by then`, async () => {
    let clock = 1_000_000;
    const cache = createLookupCache({ now: () => clock });
    const { load, loads } = counted();
    const lookups = cache.scoped(alice);
    await lookups.remember("k", load);
    clock += LOOKUP_TTL_MS - 1;
    expect(await lookups.remember("k", load)).toEqual({ id: "cus_1" });
    clock += 1;
    expect(await lookups.remember("k", load)).toEqual({ id: "cus_2" });
    expect(loads()).toBe(2);
  });

  it("a load that fails is not remembered", async () => {
    const cache = createLookupCache();
    const lookups = cache.scoped(alice);
    await expect(lookups.remember("k", () => Promise.reject(new Error("system down")))).rejects.toThrow(
      "system down",
    );
    expect(await lookups.remember("k", async () => "up")).toBe("up");
  });

  it("holds at most its bound of entries, dropping the oldest", async () => {
    const cache = createLookupCache({ maxEntries: 3 });
    const lookups = cache.scoped(alice);
    for (const key of ["a", "b", "c", "d"]) await lookups.remember(key, async () => key);
    expect(cache.size()).toBe(3);
    const { load, loads } = counted();
    await lookups.remember("a", load);
    await lookups.remember("d", load);
    expect(loads()).toBe(1);
  });
});
