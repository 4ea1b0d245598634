import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffoldConnector } from "@/scripts/new-connector";
import { resetInstalledConnectors } from "@/server/connectors/connector-registry";
import { installConnectors } from "@/server/connectors/install-connectors";
import { replaceConnectorSecret, updateConnectorSettings } from "@/server/gateway/console/manage-connectors";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { approve, idem } from "../gateway/gateway-world";
import { allowEgressTo } from "../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A company project that depends on Signpost: its own folder of connectors, resolving
 * `signpost/sdk` and its own dependencies from node_modules, outside Signpost's source.
 */
function companyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "signpost-connectors-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(root, join(dir, "node_modules", "signpost"), "dir");
  for (const dep of ["zod", "vitest"])
    symlinkSync(join(root, "node_modules", dep), join(dir, "node_modules", dep), "dir");
  mkdirSync(join(dir, "connectors"));
  return dir;
}

async function page(client: Client, tool: "search" | "navigate" | "submit", args: Record<string, unknown>) {
  const result = await client.callTool({ name: tool, arguments: args });
  const structured = sc(result) as unknown as { uri: string; outcome: string; links: string[] };
  return { ...structured, markdown: text(result) };
}

describe("a connector from outside Signpost's source: scaffolded, installed, used through MCP", () => {
  let project: string;
  let w: McpWorld;
  let system: { url: string; server: { close(): void }; accounts: Array<{ notes: unknown[] }> };
  let report: Awaited<ReturnType<typeof installConnectors>>;

  beforeAll(async () => {
    project = companyProject();
    const connectorsDir = join(project, "connectors");
    scaffoldConnector("crm", connectorsDir);
    // Three broken neighbours: none of them may stop the good one.
    mkdirSync(join(connectorsDir, "broken"));
    writeFileSync(join(connectorsDir, "broken", "index.ts"), "export default {{ not code");
    mkdirSync(join(connectorsDir, "empty"));
    writeFileSync(join(connectorsDir, "empty", "index.ts"), "export const nothing = 1;\n");
    mkdirSync(join(connectorsDir, "clash"));
    writeFileSync(
      join(connectorsDir, "clash", "index.ts"),
      `import { defineConnector } from "signpost/sdk";
export default defineConnector({ id: "shopcopy", title: "Copy", scheme: "shop", description: "", secrets: [],
  createAdapter: () => ({}), healthPath: "/", checkConnection: async () => ({ ok: true, status: 200 }),
  capabilities: [], entities: [], routes: [] });\n`,
    );
    report = await installConnectors([connectorsDir]);
    const dev = (await import(pathToFileURL(join(connectorsDir, "crm", "dev-system.ts")).href)) as {
      startCrmDevSystem(o: { apiKey: string }): Promise<typeof system>;
    };
    system = await dev.startCrmDevSystem({ apiKey: "crm-key" });
    allowEgressTo(system.url);
    w = await createMcpWorld("sqlite");
    const adam: ConsoleContext = {
      sessionId: "test",
      tenantId: "acme",
      tenantName: "Acme",
      userId: w.person.adam.userId as string,
      email: w.person.adam.email as string,
      name: w.person.adam.name as string,
      role: "admin",
    };
    expect(await updateConnectorSettings(w.db, adam, "crm", { baseUrl: system.url })).toMatchObject({
      ok: true,
    });
    expect(await replaceConnectorSecret(w.db, adam, "crm", "api_key", "crm-key")).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    await w?.close();
    system?.server.close();
    resetInstalledConnectors();
    rmSync(project, { recursive: true, force: true });
  });

  it("installs the good connector and refuses each broken one with a sentence naming its file", () => {
    expect(report.installed.map((i) => i.id)).toEqual(["crm"]);
    const refused = Object.fromEntries(report.refused.map((r) => [r.file.split("/").at(-2), r.problem]));
    expect(Object.keys(refused).sort()).toEqual(["broken", "clash", "empty"]);
    expect(refused.clash).toMatch(/scheme "shop:\/\/" is taken by connector shop/);
    expect(refused.empty).toMatch(/exports no connector/);
    expect(refused.broken).toBeTruthy();
  });

  it("an agent finds it, reads it from the system, and a note waits for the person's approval", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "actions,browse" });
    const start = await page(alice, "navigate", { uri: "signpost://start" });
    expect(start.links).toContain("crm://accounts");
    const found = await page(alice, "search", { query: "accounts" });
    expect(found.links[0]).toBe("crm://accounts");

    const listing = await page(alice, "navigate", { uri: "crm://accounts" });
    expect(listing.outcome).toBe("applied");
    expect(listing.links).toEqual(expect.arrayContaining(["crm://account/crm_1", "crm://accounts?page=2"]));
    const account = await page(alice, "navigate", { uri: "crm://account/crm_1" });
    expect(account.links).toContain("crm://account/crm_1/note");
    // "Which … can I …" is answered by its own capability's dry run per listed record, like the demo's.
    const which = await page(alice, "search", { query: "which accounts can I add a note to?" });
    expect(which.markdown).toContain("is possible now");
    // Only the page shown is checked, and the answer says where the rest is.
    expect(which.markdown).toContain("[the next page](crm://accounts?page=2) was not checked");
    expect(which.markdown).toMatch(
      /^Not possible:\n- \[crm_\d+\]\(crm:\/\/account\/crm_\d+\) — The account is closed/m,
    );

    const submitted = await page(alice, "submit", {
      uri: "crm://account/crm_1/note",
      fields: { text: "Called back" },
    });
    expect(submitted.markdown).toMatch(/a person must approve version \d/i);
    expect(submitted.markdown).toMatch(/Called back/);
    expect(system.accounts[0]?.notes).toHaveLength(0);
    const actionId = /actions\\?:\/\/([A-Za-z0-9_-]+)/.exec(submitted.markdown)?.[1] as string;

    // The model's word is not an approval: confirm stays refused until Alice decides.
    const early = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: actionId, idempotency_key: idem() },
      }),
    );
    expect(early.outcome).not.toBe("applied");
    expect(system.accounts[0]?.notes).toHaveLength(0);

    expect(await approve(w, actionId)).toMatchObject({ outcome: "applied" });
    const key = idem();
    const confirmed = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: actionId, idempotency_key: key },
      }),
    );
    expect(confirmed.outcome).toBe("applied");
    const again = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: actionId, idempotency_key: key },
      }),
    );
    expect(again.outcome).toBe("applied");
    expect(system.accounts[0]?.notes).toHaveLength(1);
    const verified = sc(await alice.callTool({ name: "verify_action", arguments: { action_id: actionId } }));
    expect(verified.outcome).toBe("applied");

    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", OR: [{ target: { startsWith: "crm://" } }, { capability: "crm_add_note" }] },
    });
    expect(new Set(rows.map((r) => r.operation))).toEqual(
      new Set([
        "browse.navigated",
        "browse.submitted",
        "action.started",
        "action.confirmed",
        "action.verified",
      ]),
    );
    expect(JSON.stringify(rows)).not.toContain("crm-key");
    const context = sc(
      await alice.callTool({ name: "get_context", arguments: { entity: "crm_account", entity_id: "crm_1" } }),
    );
    expect(context).toMatchObject({ outcome: "applied", entity: "Account" });
  });

  it("another tenant has the connector but not this tenant's system: no key, no data", async () => {
    const gina = await w.connect(w.keys.gina, { faces: "browse" });
    const listing = await page(gina, "navigate", { uri: "crm://accounts" });
    expect(listing.outcome).toBe("temporarily_unavailable");
    expect(listing.markdown).not.toContain("Account 1");
  });

  // Builds a TypeScript program over the SDK's files: ~10 s idle, 28–45 s at load 14–24.
  it("in development a connector that does not type-check is refused, naming file, line and column", async () => {
    const dir = join(project, "dev-connectors");
    mkdirSync(join(dir, "typo"), { recursive: true });
    writeFileSync(
      join(dir, "typo", "index.ts"),
      `import { defineConnector } from "signpost/sdk";
export default defineConnector({ id: "typo", title: "Typo", scheme: "typo", description: "", secrets: [],
  createAdapter: () => ({}), healthPath: 42, checkConnection: async () => ({ ok: true, status: 200 }),
  capabilities: [], entities: [], routes: [] });\n`,
    );
    const typed = await installConnectors([dir], { typecheck: true });
    expect(typed.installed).toEqual([]);
    expect(typed.refused[0]?.problem).toMatch(
      /type error at .*typo\/index\.ts:3:\d+: Type 'number' is not assignable/,
    );
  }, 90_000);

  // A second vitest, which starts the kit's whole Signpost (database, gateway) for the scaffold's
  // start → approve → confirm test: ~15 s idle, more on a loaded machine.
  it("the scaffold's own tests (through signpost/sdk/testing) pass in the company's project", () => {
    const out = execFileSync(
      process.execPath,
      [join(root, "node_modules/vitest/vitest.mjs"), "run", "--dir", "connectors/crm", "--root", project],
      { cwd: project, encoding: "utf8", env: { ...process.env, CI: "1" } },
    );
    expect(out).toMatch(/2 passed/);
  }, 120_000);
});
