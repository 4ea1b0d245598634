import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { readSecret } from "@/server/gateway/vault";
import { createTestDatabase, type TestDatabase } from "../../helpers/database";
import { trainDocWithPastedToken } from "./train-doc-pasted-token";

/**
 * `npx signpost connect openapi …` as an operator runs it (the real launcher, a child process)
 * against a database a "running server" (this process) also reads: the server serves the new
 * connector on its next call, with no restart; a re-import prints its diff and waits for --yes;
 * a secret's value is never printed.
 */

const run = promisify(execFile);
// The CLI and this process read the same vault: one master key for both.
process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
const DOC = trainDocWithPastedToken();
const TOKEN = "tt_cli_Qm7wX2pL9sK4vN8rT3yZ";
let database: TestDatabase;
let dir: string;

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["bin/signpost.mjs", ...args], {
      env: { ...process.env, DATABASE_URL: database.url, SIGNPOST_DATA_DIR: dir },
      // One CLI run is ~4 s of CPU (tsx compiling the commands); with the suite running beside it
      // on two cores that took 25 s here, and a kill at 60 s was read as a failure (exit 143).
      timeout: 150_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

beforeAll(async () => {
  database = await createTestDatabase("sqlite");
  dir = mkdtempSync(join(tmpdir(), "signpost-cli-"));
  await database.db.tenant.create({ data: { id: "acme", name: "Acme" } });
});
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("npx signpost connect openapi", () => {
  test("imports, registers at once for a running server, keeps the secret in the vault and never prints it", async () => {
    expect((await tenantConnectors(database.db, "acme")).some((c) => c.id === "train")).toBe(false);
    const done = await cli([
      "connect",
      "openapi",
      DOC,
      "--id",
      "train",
      "--base-url",
      "http://127.0.0.1:4999",
      "--secret",
      `OAuth2=${TOKEN}`,
    ]);
    expect(done.code, done.out).toBe(0);
    expect(done.out).toMatch(
      /Imported train:\/\/ \(Train Travel API, OpenAPI 3\.1\.0\) into acme: 3 listings, 1 detail pages, 3 forms/,
    );
    expect(done.out).toContain("oauth2 (set");
    expect(done.out).not.toContain(TOKEN);
    // The server process serves it on its next call.
    const train = (await tenantConnectors(database.db, "acme")).find((c) => c.id === "train");
    expect(train?.routes.map((r) => r.pattern)).toContain("train://bookings/{bookingId}");
    expect(await readSecret(database.db, { tenantId: "acme", connector: "train", name: "oauth2" })).toBe(
      TOKEN,
    );
    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { operation: "connector.imported" },
    });
    expect(audit.face).toBe("cli");
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
  }, 400_000);

  test("a re-import prints added, removed and changed operations and applies only with --yes", async () => {
    const doc = JSON.parse(readFileSync(DOC, "utf8"));
    delete doc.paths["/trips"];
    doc.paths["/stations"].get.summary = "All the stations";
    const file = join(dir, "train-v2.json");
    writeFileSync(file, JSON.stringify(doc));
    const asked = await cli([
      "connect",
      "openapi",
      file,
      "--id",
      "train",
      "--base-url",
      "http://127.0.0.1:4999",
      "--tenant",
      "acme",
    ]);
    expect(asked.code, asked.out).toBe(0);
    expect(asked.out).toContain("- GET /trips (get-trips)");
    expect(asked.out).toContain("~ GET /stations (get-stations)");
    expect(asked.out).toContain("Nothing was changed. Run again with --yes to apply.");
    expect(
      (await tenantConnectors(database.db, "acme"))
        .find((c) => c.id === "train")
        ?.routes.some((r) => r.pattern === "train://trips"),
    ).toBe(true);
    const applied = await cli([
      "connect",
      "openapi",
      file,
      "--id",
      "train",
      "--base-url",
      "http://127.0.0.1:4999",
      "--yes",
    ]);
    expect(applied.code, applied.out).toBe(0);
    expect(
      (await tenantConnectors(database.db, "acme"))
        .find((c) => c.id === "train")
        ?.routes.some((r) => r.pattern === "train://trips"),
    ).toBe(false);
  }, 400_000);

  test("a bad document or setting exits 1 with the reason and changes nothing", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "openapi: 3.0.0\npaths: [oops");
    const refused = await cli([
      "connect",
      "openapi",
      bad,
      "--id",
      "bad",
      "--base-url",
      "http://127.0.0.1:4999",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/neither JSON nor valid YAML/);
    const shop = await cli([
      "connect",
      "openapi",
      DOC,
      "--id",
      "shop",
      "--base-url",
      "http://127.0.0.1:4999",
    ]);
    expect(shop.out).toMatch(/installed connector uses/);
    const unknownSecret = await cli([
      "connect",
      "openapi",
      DOC,
      "--id",
      "other",
      "--base-url",
      "http://127.0.0.1:4999",
      "--secret",
      "nope=x",
    ]);
    expect(unknownSecret.out).toMatch(/no usable security scheme by that name \(oauth2\)/);
    expect(await database.db.importedConnector.count()).toBe(1);
  }, 400_000);
});
