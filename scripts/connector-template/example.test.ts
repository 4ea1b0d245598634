import { type ConnectorWorld, startConnectorWorld } from "signpost/sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExampleDevSystem } from "./dev-system";

// This folder's connector in a real Signpost (database, gateway, browse), against its system:
// the stand-in here until the real one is wired up (then give its address and key instead).
describe("example connector", () => {
  let system: Awaited<ReturnType<typeof startExampleDevSystem>>;
  let world: ConnectorWorld;
  beforeAll(async () => {
    system = await startExampleDevSystem({ apiKey: "test-key" });
    world = await startConnectorWorld(new URL(".", import.meta.url), {
      baseUrl: system.url,
      secrets: { api_key: "test-key" },
    });
  });
  afterAll(async () => {
    await world?.close();
    system?.server.close();
  });

  it("an agent reads the accounts page by page; another tenant gets nothing", async () => {
    const first = await world.agent.navigate("example://accounts");
    expect(first.links).toEqual(
      expect.arrayContaining(["example://account/example_1", "example://accounts?page=2"]),
    );
    expect((await world.agent.navigate("example://account/example_404")).outcome).toBe("not_found");
    expect((await world.stranger.navigate("example://accounts")).outcome).toBe("temporarily_unavailable");
  });

  it("a note waits for the person's approval, is added once, and verify finds it", async () => {
    const started = await world.agent.start("example_add_note", {
      account_id: "example_1",
      text: "Called back",
    });
    const actionId = started.action_id as string;
    expect((await world.agent.confirm(actionId)).outcome).not.toBe("applied"); // no approval yet
    expect(await world.person.approve(actionId)).toMatchObject({ outcome: "applied" });
    expect(await world.agent.confirm(actionId)).toMatchObject({ outcome: "applied" });
    expect(system.accounts[0]?.notes).toHaveLength(1);
    expect(await world.agent.verify(actionId)).toMatchObject({ outcome: "applied" });
  });
});
