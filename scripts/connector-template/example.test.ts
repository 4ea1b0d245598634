import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAdapter } from "./adapter";
import { startExampleDevSystem } from "./dev-system";
import connector from "./index";

// The connector against its system (the stand-in until the real one is wired up): the adapter
// reads, and the note is added once however often the effect is retried with its action key.
describe("example connector", () => {
  let system: Awaited<ReturnType<typeof startExampleDevSystem>>;
  beforeAll(async () => {
    system = await startExampleDevSystem({ apiKey: "test-key" });
    // Signpost's egress policy refuses this machine's addresses unless the operator allows them:
    // the stand-in listens on loopback, so the test allows exactly it, as an operator would.
    process.env.SIGNPOST_EGRESS_ALLOW = new URL(system.url).host;
  });
  afterAll(() => system.server.close());

  it("reads accounts page by page", async () => {
    const adapter = connector.createAdapter({ baseUrl: system.url, secrets: { api_key: "test-key" } });
    const first = await adapter.accounts(1);
    expect(first?.data).toHaveLength(5);
    expect(first?.next_page).toBe(2);
    expect(await adapter.account("example_404")).toBeNull();
  });

  it("adds a note once per action key, and verify finds it", async () => {
    const adapter = openAdapter({ baseUrl: system.url, apiKey: "test-key" });
    const account = await adapter.account("example_1");
    const effect = connector.capabilities[0]?.effect;
    const ctx = {
      adapter,
      actor: { tenantId: "t", userId: "u", email: "u@example.com", role: "member" as const },
      values: { account_id: "example_1", text: "Called back" },
      derived: { account },
      actionKey: "act_key_1",
      attempts: 3,
      timeoutMs: 2000,
    };
    expect(await effect?.execute(ctx)).toMatchObject({ status: "applied" });
    expect(await effect?.execute(ctx)).toMatchObject({ status: "applied" });
    expect(system.accounts[0]?.notes).toHaveLength(1);
    expect(await effect?.verify(ctx)).toMatchObject({ happened: true });
  });
});
