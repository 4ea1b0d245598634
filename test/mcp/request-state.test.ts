import type { ServerContext } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignpostRequestStateCodec } from "@/mcp/request-state";
import { consumeNonce } from "@/server/gateway/consume-nonce";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";

/** What the codec reads of a request: the method and the authenticated client it binds to. */
const ctx = (clientId: string) =>
  ({ mcpReq: { method: "tools/call" }, http: { authInfo: { clientId } } }) as unknown as ServerContext;
const payload = { agent_id: "agent_1", action_id: "act_1", version: 3, purpose: "fill" } as const;
const expected = { agent_id: "agent_1", action_id: "act_1", version: 3 };

describeEachProvider("requestState single use across instances on %s", (provider) => {
  let database: TestDatabase;
  // Two instances: separate codecs (as in two processes) with one key and one database.
  let first: ReturnType<typeof createSignpostRequestStateCodec>;
  let second: ReturnType<typeof createSignpostRequestStateCodec>;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    const consume = (nonce: string, expiresAt: Date) => consumeNonce(database.db, nonce, expiresAt);
    first = createSignpostRequestStateCodec("k".repeat(32), consume);
    second = createSignpostRequestStateCodec("k".repeat(32), consume);
  });
  afterAll(async () => database?.drop());

  it("a state used on one instance is refused as replayed on the other", async () => {
    const raw = await first.mint(payload, ctx("agent_1"));
    expect(await second.verify(raw, ctx("agent_1"), expected)).toMatchObject({ ok: true });
    expect(await first.verify(raw, ctx("agent_1"), expected)).toMatchObject({
      ok: false,
      reason: "request_state_replayed",
    });
  });

  it("concurrent uses of one state on both instances: exactly one wins", async () => {
    const raw = await first.mint(payload, ctx("agent_1"));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? first : second).verify(raw, ctx("agent_1"), expected)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "request_state_replayed")).toHaveLength(9);
  });

  it("a state refused for another reason is not used up", async () => {
    const raw = await first.mint(payload, ctx("agent_1"));
    expect(await second.verify(raw, ctx("agent_1"), { ...expected, version: 4 })).toMatchObject({
      ok: false,
      reason: "request_state_mismatch",
    });
    expect(await second.verify(raw, ctx("agent_2"), expected)).toMatchObject({
      ok: false,
      reason: "invalid_request_state",
    });
    expect(await second.verify(raw, ctx("agent_1"), expected)).toMatchObject({ ok: true });
  });

  it("prunes nonces whose state has expired, so the table holds at most one TTL of them", async () => {
    await database.db.consumedNonce.create({
      data: { nonce: "long_gone", expiresAt: new Date(Date.now() - 60_000) },
    });
    expect(await consumeNonce(database.db, "fresh", new Date(Date.now() + 600_000))).toBe(true);
    expect(await database.db.consumedNonce.findUnique({ where: { nonce: "long_gone" } })).toBeNull();
    expect(await consumeNonce(database.db, "fresh", new Date(Date.now() + 600_000))).toBe(false);
  });
});
