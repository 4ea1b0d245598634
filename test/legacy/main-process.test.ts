import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "signpost-legacy-main-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function startMain(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/legacy/main.ts"], {
    env: {
      ...process.env,
      LEGACY_PORT: String(port),
      LEGACY_DB: join(dir, "legacy.sqlite"),
      LEGACY_ADMIN_KEY: "admin-key-for-test",
      LEGACY_API_KEYS: JSON.stringify({ acme: "acme-key-for-test", globex: "globex-key-for-test" }),
      LEGACY_LOG: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes('"listening"')) resolve();
    });
    child.stderr?.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`legacy main exited ${code}: ${out}`)));
  });
  return child;
}

test("main.ts serves on LEGACY_PORT with LEGACY_API_KEYS, and keeps its data in LEGACY_DB across restarts", async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const auth = { authorization: "Bearer acme-key-for-test" };
  const first = await startMain(port);
  expect(await fetch(`${url}/v1/health`, { headers: auth }).then((r) => r.json())).toEqual({
    ok: true,
    tenant: "acme",
  });
  const cancel = await fetch(`${url}/v1/orders/ord_pending/cancel`, { method: "POST", headers: auth });
  expect(cancel.status).toBe(200);
  const stopped = new Promise((resolve) => first.once("exit", resolve));
  first.kill("SIGTERM");
  await stopped;

  await startMain(port);
  const order = await fetch(`${url}/v1/orders/ord_pending`, { headers: auth }).then((r) => r.json());
  expect(order.status).toBe("cancelled");
  const reset = await fetch(`${url}/admin/reset`, {
    method: "POST",
    headers: { "x-admin-key": "admin-key-for-test" },
  });
  expect(reset.status).toBe(200);
  expect((await fetch(`${url}/v1/orders/ord_pending`, { headers: auth }).then((r) => r.json())).status).toBe(
    "pending_payment",
  );
}, 60_000);
