import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { FaultRegistry } from "./faults/fault-registry";
import type { RouteServices } from "./http/define-route";
import { handleLegacyRequest, type RequestLogEntry } from "./http/handle-legacy-request";
import { legacyRoutes } from "./legacy-routes";
import { buildOpenApiDocument } from "./openapi/build-openapi-document";
import { openLegacyStore, resetLegacyStore } from "./store/open-legacy-store";
import type { LegacyApiKeys } from "./store/seed-demo-data";

export interface LegacyServerOptions {
  /** SQLite file; created and seeded with the demo data when new. */
  dbPath: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Tenant API keys (written into a new store; an existing store's keys are updated to these). */
  apiKeys: LegacyApiKeys;
  /** Guards /admin/*. */
  adminKey: string;
  /** Check every success body against its response schema (500 on drift); tests turn it on. */
  validateResponses?: boolean;
  onRequest?: (entry: RequestLogEntry) => void;
  /** The clock idempotency keys expire by; default the real one (tests move a fake one a day on). */
  now?: () => Date;
}

export interface LegacyServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the demo legacy service over HTTP; `main.ts` and the test helper both use this. */
export async function createLegacyServer(options: LegacyServerOptions): Promise<LegacyServer> {
  const db = openLegacyStore(options.dbPath, options.apiKeys);
  const faults = new FaultRegistry();
  let openApi: Record<string, unknown> | undefined;
  const services: RouteServices = {
    faults,
    resetDemoData: () => resetLegacyStore(db),
    openApiDocument: () => {
      openApi ??= buildOpenApiDocument(legacyRoutes);
      return openApi;
    },
  };
  const timers = new Set<NodeJS.Timeout>();
  const deps = {
    db,
    routes: legacyRoutes,
    services,
    adminKey: options.adminKey,
    validateResponses: options.validateResponses ?? false,
    timers,
    onRequest: options.onRequest,
    now: options.now ?? (() => new Date()),
  };
  const server = createServer((req, res) => {
    void handleLegacyRequest(deps, req, res);
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
      db.close();
    },
  };
}
