import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { createLegacyServer } from "@/server/legacy/create-legacy-server";
import { allowEgressTo } from "./allow-egress";

/** A fault as POST /admin/faults takes it (see server/legacy/API.md). */
export interface LegacyFault {
  match: string;
  mode: "latency" | "error" | "down" | "commit_then_timeout" | "noop_success";
  count?: number;
  latency_ms?: number;
  error_rate?: number;
}

export interface RunningLegacy {
  url: string;
  adminKey: string;
  apiKeys: { acme: string; globex: string };
  /** The store's SQLite file, for a test that needs more rows than the demo seed has (reset restores it). */
  dbPath: string;
  injectFault(fault: LegacyFault): Promise<{ id: string }>;
  clearFaults(): Promise<void>;
  /** Restores the demo data, forgets idempotency keys, clears faults. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartLegacyOptions {
  /** Fixed tenant keys; random ones by default. */
  apiKeys?: { acme: string; globex: string };
  adminKey?: string;
  /** Answer 500 when a response breaks its OpenAPI schema (default true: drift fails tests). */
  validateResponses?: boolean;
  /** Each request the service answered (method, path, status): to count what a call cost it. */
  onRequest?: (entry: { method: string; path: string; status: number }) => void;
}

/**
 * Admin calls (faults, reset) open a fresh connection each: on a loaded machine a pooled
 * keep-alive socket the service had just closed gave `fetch failed: ECONNRESET` (recovery-guards,
 * once), and a fault POST cannot be retried blindly — it might have been added.
 */
const freshConnections = new Agent({ pipelining: 0 });

async function admin(
  url: string,
  adminKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const res = await undiciFetch(`${url}${path}`, {
    dispatcher: freshConnections,
    method,
    headers: { "x-admin-key": adminKey, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`legacy admin ${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Starts the real legacy service in-process on a random port with a fresh temp store. */
export async function startLegacy(options: StartLegacyOptions = {}): Promise<RunningLegacy> {
  const dir = mkdtempSync(join(tmpdir(), "signpost-legacy-"));
  const apiKeys = options.apiKeys ?? {
    acme: `lk_acme_${randomBytes(8).toString("hex")}`,
    globex: `lk_globex_${randomBytes(8).toString("hex")}`,
  };
  const adminKey = options.adminKey ?? `adm_${randomBytes(8).toString("hex")}`;
  const dbPath = join(dir, "legacy.sqlite");
  const server = await createLegacyServer({
    dbPath,
    port: 0,
    apiKeys,
    adminKey,
    validateResponses: options.validateResponses ?? true,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  allowEgressTo(server.url);
  return {
    url: server.url,
    adminKey,
    apiKeys,
    dbPath,
    injectFault: async (fault) =>
      (await admin(server.url, adminKey, "POST", "/admin/faults", fault)) as { id: string },
    clearFaults: async () => {
      await admin(server.url, adminKey, "DELETE", "/admin/faults");
    },
    reset: async () => {
      await admin(server.url, adminKey, "POST", "/admin/reset");
    },
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
