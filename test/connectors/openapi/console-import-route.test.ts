import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { POST } from "@/app/api/console/config/import/route";
import { hashSessionToken } from "@/server/gateway/console-session";
import { createWorld, type World } from "../../gateway/gateway-world";

/**
 * The console's "Add a system", through its route handler with a real session cookie: admins
 * only, preview first (nothing stored), then import into the admin's own tenant; an oversized
 * upload is refused before it is read.
 */

const jar = vi.hoisted(() => ({ token: "" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "sp_session" && jar.token ? { name, value: jar.token } : undefined),
  }),
}));

const PETS = readFileSync(
  join(process.cwd(), "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json"),
  "utf8",
);
let w: World;
const sessions: Record<string, string> = {};

async function sessionFor(who: "adam" | "alice" | "gina"): Promise<string> {
  const token = randomBytes(24).toString("hex");
  await w.db.session.create({
    data: {
      tokenHash: hashSessionToken(token),
      userId: w.person[who].userId as string,
      tenantId: w.person[who].tenantId,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return token;
}

async function post(who: "adam" | "alice" | "gina", body: unknown, headers: Record<string, string> = {}) {
  jar.token = sessions[who] as string;
  const res = await POST(
    new Request("http://localhost:3000/api/console/config/import", {
      method: "POST",
      headers: {
        origin: "http://localhost:3000",
        host: "localhost:3000",
        "content-type": "application/json",
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  w = await createWorld("sqlite");
  (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
  for (const who of ["adam", "alice", "gina"] as const) sessions[who] = await sessionFor(who);
});
afterAll(async () => {
  (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
  await w?.close();
});

describe('"Add a system" on the console', () => {
  const input = (apply: boolean) => ({
    id: "pets",
    baseUrl: "http://127.0.0.1:4999",
    readRoles: ["admin", "support"],
    document: PETS,
    apply,
  });

  test("an admin previews (nothing stored), then imports into their own tenant, on record", async () => {
    const preview = await post("adam", input(false));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      connector: "pets",
      applied: false,
      report: { listings: 1, details: 1, forms: 2 },
    });
    expect(await w.db.importedConnector.count()).toBe(0);
    const done = await post("adam", input(true));
    expect(done.body).toMatchObject({ applied: true, startPages: ["pets://", "pets://pets"] });
    expect(await w.db.importedConnector.findMany({ select: { tenantId: true, connector: true } })).toEqual([
      { tenantId: "acme", connector: "pets" },
    ]);
    const audit = await w.db.auditEvent.findFirst({ where: { operation: "connector.imported" } });
    expect(audit).toMatchObject({ tenantId: "acme", target: "config://pets", outcome: "applied" });
  });

  test("only admins import (a member of either tenant is refused); Acme's import stays as it was", async () => {
    const before = await w.db.importedConnector.findFirstOrThrow({ where: { tenantId: "acme" } });
    expect((await post("gina", input(true))).status).toBe(403);
    expect((await post("alice", input(true))).status).toBe(403);
    expect(await w.db.importedConnector.findFirstOrThrow({ where: { tenantId: "acme" } })).toEqual(before);
  });

  test("bad input is refused with its reason; an oversized upload before it is read", async () => {
    const selfUrl = await post("adam", {
      ...input(true),
      id: "mirror",
      baseUrl: "http://localhost:3000/api",
    });
    expect(selfUrl).toMatchObject({ status: 422, body: { error: { details: { code: "bad_base_url" } } } });
    const broken = await post("adam", { ...input(true), id: "broken", document: "{ not json" });
    expect(broken).toMatchObject({ status: 422, body: { error: { details: { code: "invalid_syntax" } } } });
    const huge = await post("adam", "x", { "content-length": String(50 * 1024 * 1024) });
    expect(huge).toMatchObject({ status: 422, body: { error: { details: { code: "too_large" } } } });
    const both = await post("adam", { ...input(true), url: "http://127.0.0.1:1/doc.json" });
    expect(both.status).toBe(400);
    expect(await w.db.importedConnector.count()).toBe(1);
  });
});
