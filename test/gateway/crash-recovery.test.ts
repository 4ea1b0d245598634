import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, type World } from "./gateway-world";

async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

async function faultsLeft(w: World): Promise<number> {
  const res = await fetch(`${w.legacy.url}/admin/faults`, { headers: { "x-admin-key": w.legacy.adminKey } });
  const body = (await res.json()) as unknown[] | { data?: unknown[]; faults?: unknown[] };
  return (Array.isArray(body) ? body : (body.data ?? body.faults ?? [])).length;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function approvedCheckout(w: World) {
  const start = await checkoutToConfirmation(w);
  const id = start.action_id as string;
  await grant(w, id);
  return id;
}

/**
 * Confirms the action in a child process and kills it (SIGKILL) the moment the legacy system
 * has taken the request that `fault` (a one-shot latency fault) holds: whatever the gateway had
 * written by then is all that is left.
 */
async function killConfirmDuring(w: World, actionId: string, fault: { match: string; latency_ms: number }) {
  await w.legacy.injectFault({ ...fault, mode: "latency", count: 1 });
  const child = spawn(process.execPath, ["--import", "tsx", "test/gateway/fixtures/confirm-in-child.ts"], {
    env: { ...process.env, DATABASE_URL: w.database.url, AGENT_KEY: w.keys.alice, ACTION_ID: actionId },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  // Starting a TypeScript child is slow on a busy machine: wait until it is ready to confirm.
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.on("exit", () => reject(new Error("child exited before it was ready")));
  });
  const deadline = Date.now() + 30_000;
  while ((await faultsLeft(w)) > 0 && Date.now() < deadline) await sleep(25);
  expect(Date.now()).toBeLessThan(deadline);
  child.kill("SIGKILL");
  expect(await exited).toBeNull();
  return w.db.effect.findUniqueOrThrow({ where: { actionId } });
}

/** What a dead process's lease looks like once it has run out. */
async function expireLease(w: World, effect: { id: string; request: unknown }) {
  await w.db.effect.update({
    where: { id: effect.id },
    data: { request: { ...(effect.request as object), lease_until: new Date(0).toISOString() } },
  });
}

describeEachProvider("a process killed between claiming and recording an effect (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.clearFaults());

  it("after sending: leaves a pending effect that recover reconciles without a second charge", async () => {
    const id = await approvedCheckout(w);
    // The payment reaches the legacy system, which takes 2 s to apply it.
    const effect = await killConfirmDuring(w, id, { match: "POST /v1/payments", latency_ms: 2000 });
    expect(effect.status).toBe("pending"); // sent, never recorded
    // While the lease runs, recover does not touch an effect that may still be in flight.
    const early = await w.gw.recoverAction(w.agent.alice, { action_id: id });
    expect(early).toMatchObject({ outcome: "unknown", reason: "effect_in_progress" });
    await sleep(2500); // the legacy system applies the payment meanwhile
    // The lease of the dead process runs out; support sees it in the recovery queue.
    await expireLease(w, effect);
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
    const recovered = await w.gw.recoverAction(w.agent.alice, { action_id: id });
    expect(recovered).toMatchObject({
      outcome: "applied",
      status: "completed",
      effect: { status: "applied" },
      verification: { status: "paid" },
    });
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).not.toContain(id);
    // A late retry by the agent gets the recorded outcome.
    const again = await w.gw.confirmAction(w.agent.alice, {
      action_id: id,
      idempotency_key: "child-confirm-0001",
    });
    expect(again).toMatchObject({ outcome: "applied", reason: "idempotent_replay" });
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
  }, 120_000);

  it("before sending: recover verifies, finds nothing, retries with the original key", async () => {
    const id = await approvedCheckout(w);
    // The claim is written first; the re-validation's first read (the customer) is then held.
    const effect = await killConfirmDuring(w, id, { match: "GET /v1/customers", latency_ms: 10_000 });
    expect(effect.status).toBe("pending"); // claimed, nothing sent
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(0);
    await expireLease(w, effect);
    const recovered = await w.gw.recoverAction(w.agent.alice, { action_id: id });
    expect(recovered).toMatchObject({
      outcome: "applied",
      effect: { status: "applied", action_key: effect.actionKey },
    });
    expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
  }, 120_000);
});
