import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldConnector } from "@/scripts/new-connector";
import { seedDemo } from "@/scripts/seed-demo";
import { setSecret } from "@/server/gateway/vault";
import { allowEgressTo } from "../helpers/allow-egress";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { type RunningLegacy, startLegacy } from "../helpers/legacy-server";
import { callTool, type ServeInstance, startServeInstance } from "./helpers/serve-instance";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Issue 13 §2 through the production entry (`npx signpost serve`, Next.js in the same process):
 * a connector scaffolded into a company's own folder is installed at start and its pages, links
 * and form work through /mcp — which needs the installed list and the page scope to be the
 * process's, not one module copy's (serve.ts and the Next.js bundle each load the SDK).
 */
describe("SIGNPOST_CONNECTORS_DIR with npx signpost serve", () => {
  const masterKey = randomBytes(32).toString("hex");
  let project: string;
  let database: TestDatabase;
  let legacy: RunningLegacy;
  let system: { url: string; server: { close(): void }; accounts: Array<{ notes: unknown[] }> };
  let serve: ServeInstance;
  let aliceKey: string;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), "signpost-company-"));
    mkdirSync(join(project, "node_modules"));
    symlinkSync(root, join(project, "node_modules", "signpost"), "dir");
    symlinkSync(join(root, "node_modules", "zod"), join(project, "node_modules", "zod"), "dir");
    scaffoldConnector("crm", join(project, "connectors"));
    const dev = (await import(pathToFileURL(join(project, "connectors", "crm", "dev-system.ts")).href)) as {
      startCrmDevSystem(o: { apiKey: string }): Promise<typeof system>;
    };
    system = await dev.startCrmDevSystem({ apiKey: "crm-key" });
    // The stand-in listens on loopback: allowed by the egress policy as an operator would (the
    // serve child inherits it).
    allowEgressTo(system.url);

    database = await createTestDatabase("sqlite");
    legacy = await startLegacy();
    const saved = process.env.SIGNPOST_MASTER_KEY;
    process.env.SIGNPOST_MASTER_KEY = masterKey;
    try {
      const seeded = await seedDemo(database.db, { legacyUrl: legacy.url, legacyApiKeys: legacy.apiKeys });
      if (!seeded) throw new Error("not seeded");
      aliceKey = seeded.agents.find((a) => a.user.startsWith("alice@"))?.key as string;
      await database.db.connectorConfig.create({
        data: { tenantId: "acme", connector: "crm", enabled: true, settings: { baseUrl: system.url } },
      });
      await setSecret(database.db, { tenantId: "acme", connector: "crm", name: "api_key", value: "crm-key" });
    } finally {
      if (saved === undefined) delete process.env.SIGNPOST_MASTER_KEY;
      else process.env.SIGNPOST_MASTER_KEY = saved;
    }
    serve = await startServeInstance({
      databaseUrl: database.url,
      masterKey,
      env: { SIGNPOST_CONNECTORS_DIR: join(project, "connectors"), SIGNPOST_JOBS: "0" },
    });
  }, 600_000);

  afterAll(async () => {
    await serve?.stop();
    system?.server.close();
    await legacy?.stop();
    await database?.drop();
    rmSync(project, { recursive: true, force: true });
  });

  it("installs it at start, and an agent browses it and submits its form up to the person's approval", async () => {
    expect(serve.output()).toMatch(/"event":"connector_installed","connector":"crm"/);
    const found = await callTool(serve.url, aliceKey, "search", { query: "accounts" });
    expect(found.links).toContain("crm://accounts");
    const listing = await callTool(serve.url, aliceKey, "navigate", { uri: "crm://accounts" });
    expect(listing.outcome).toBe("applied");
    // Links the connector's own copy of the SDK made are the page's links.
    expect(listing.links).toEqual(expect.arrayContaining(["crm://account/crm_1", "crm://accounts?page=2"]));
    const submitted = await callTool(serve.url, aliceKey, "submit", {
      uri: "crm://account/crm_1/note",
      fields: { text: "From the production entry" },
    });
    expect(submitted.links).toEqual(expect.arrayContaining([expect.stringMatching(/^actions:\/\//)]));
    expect(system.accounts[0]?.notes).toHaveLength(0);
  });
});
