import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersUnderTest } from "../helpers/database";
import { approve, checkoutToConfirmation, createWorld, type World } from "./gateway-world";

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

describe.each(await providersUnderTest())(
  "a process killed between sending and recording (%s)",
  (provider) => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(provider);
    });
    afterAll(async () => w?.close());

    it("leaves a pending effect that recover reconciles without a second charge", async () => {
      const start = await checkoutToConfirmation(w);
      const id = start.action_id as string;
      await approve(w, id);
      // The payment reaches the legacy system, which takes 2 s to apply it.
      await w.legacy.injectFault({ match: "POST /v1/payments", mode: "latency", count: 1, latency_ms: 2000 });
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "test/gateway/fixtures/confirm-in-child.ts"],
        {
          env: { ...process.env, DATABASE_URL: w.database.url, AGENT_KEY: w.keys.alice, ACTION_ID: id },
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      // Starting a TypeScript child is slow on a busy machine: wait until it is ready to confirm.
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready")) resolve();
        });
        child.on("exit", () => reject(new Error("child exited before it was ready")));
      });
      // Kill the process the moment the payment request has been taken by the legacy system.
      const deadline = Date.now() + 30_000;
      while ((await faultsLeft(w)) > 0 && Date.now() < deadline) await sleep(25);
      expect(Date.now()).toBeLessThan(deadline);
      child.kill("SIGKILL");
      expect(await exited).toBeNull();
      const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
      expect(effect.status).toBe("pending"); // sent, never recorded
      await sleep(2500); // the legacy system applies the payment meanwhile
      // The lease of the dead process runs out; support sees it in the recovery queue.
      await w.db.effect.update({
        where: { id: effect.id },
        data: { request: { ...(effect.request as object), lease_until: new Date(0).toISOString() } },
      });
      expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
      const recovered = await w.gw.recoverAction(w.agent.alice, { action_id: id });
      expect(recovered).toMatchObject({
        outcome: "applied",
        status: "completed",
        verification: { status: "paid" },
      });
      expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
      // A late retry by the agent gets the recorded outcome.
      const again = await w.gw.confirmAction(w.agent.alice, {
        action_id: id,
        idempotency_key: "child-confirm-0001",
      });
      expect(again).toMatchObject({ outcome: "applied", reason: "idempotent_replay" });
      expect(await legacyPayments(w, effect.actionKey)).toHaveLength(1);
    }, 120_000);
  },
);
