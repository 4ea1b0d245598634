import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectors } from "@/server/connectors/connector-registry";
import { importedConnectorProblems } from "@/server/connectors/openapi/imported-connectors";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";

/**
 * The seam every tenant-serving path asks: the installed connectors plus the tenant's imported
 * ones, generated once per change (one aggregate query per call decides), never another tenant's,
 * and a broken stored document never takes the others with it.
 */

const PETS = readFileSync(
  join(process.cwd(), "node_modules/@readme/oas-examples/3.0/json/petstore-expanded.json"),
  "utf8",
);
let database: TestDatabase;

const importPets = (tenant: string, id: string) =>
  importOpenApiConnector(
    database.db,
    cliActor(tenant, "test"),
    {
      text: PETS,
      id,
      baseUrl: "http://127.0.0.1:4999",
      readRoles: ["admin"],
      secrets: {},
      self: { origins: [], ports: [] },
    },
    { apply: true },
  );

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  await database.db.tenant.createMany({
    data: [
      { id: "acme", name: "Acme" },
      { id: "globex", name: "Globex" },
    ],
  });
});
afterAll(async () => database?.drop());

describe("tenantConnectors", () => {
  test("without imports it is the installed list itself", async () => {
    expect(await tenantConnectors(database.db, "acme")).toBe(connectors());
  });

  test("an import is served at once, generated once until something changes, and only to its tenant", async () => {
    expect((await importPets("acme", "pets")).ok).toBe(true);
    const first = await tenantConnectors(database.db, "acme");
    expect(first.map((c) => c.id)).toEqual([...connectors().map((c) => c.id), "pets"]);
    // Nothing changed: the same generated list (route tables and search indexes keyed on it stay warm).
    expect(await tenantConnectors(database.db, "acme")).toBe(first);
    expect(await tenantConnectors(database.db, "globex")).toBe(connectors());
    expect((await importPets("acme", "morepets")).ok).toBe(true);
    const second = await tenantConnectors(database.db, "acme");
    expect(second).not.toBe(first);
    expect(second.map((c) => c.id).slice(-2)).toEqual(["pets", "morepets"]);
  });

  test("a stored document that no longer loads is left out, with why; the tenant's others stay", async () => {
    await database.db.importedConnector.update({
      where: { tenantId_connector: { tenantId: "acme", connector: "morepets" } },
      data: { document: "{ broken" },
    });
    const list = await tenantConnectors(database.db, "acme");
    expect(list.map((c) => c.id)).toContain("pets");
    expect(list.map((c) => c.id)).not.toContain("morepets");
    expect(importedConnectorProblems("acme")).toEqual([
      { connector: "morepets", problem: expect.stringContaining("JSON") },
    ]);
  });
});
