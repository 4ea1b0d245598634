import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { CliFailure, runCli } from "@/scripts/cli";
import { createDb } from "@/server/db/client";
import { listMigrations } from "@/server/db/migrations";
import { hashAgentKey } from "@/server/gateway/agent-keys";
import { verifyPassword } from "@/server/gateway/passwords";

// Protects the headless admin path: `npx signpost` migrates and seeds a fresh data directory
// (only when asked to create it), creates users, mints keys that are stored only as hashes, and
// revokes them — through the console's own functions, each change audited with face `cli`;
// `migrate` works while another process (a running server) holds the SQLite file.
//
// The program itself (bin/signpost.mjs → scripts/cli.ts: exit status, stdout/stderr, file modes
// under its umask) runs as a child once per kind of outcome; the other commands run the same
// code in this process (runCli), which spares a TypeScript start per command.

const root = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "signpost-cli-"));
const env = { ...process.env, SIGNPOST_DATA_DIR: dataDir, DATABASE_URL: "", SIGNPOST_MASTER_KEY: "" };

/** The real program in a child process: its exit status and everything it printed. */
function signpostWith(environment: NodeJS.ProcessEnv, ...args: string[]) {
  const result = spawnSync(process.execPath, [join(root, "bin/signpost.mjs"), ...args], {
    cwd: root,
    env: environment,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/**
 * A command run in this process with the given environment: status 0 when it finished, 1 when it
 * was refused (as the program exits), and what it printed, the refusal as the program words it.
 */
async function inProcess(environment: Record<string, string>, ...args: string[]) {
  const saved = Object.fromEntries(Object.keys(environment).map((k) => [k, process.env[k]]));
  Object.assign(process.env, environment);
  const lines: string[] = [];
  try {
    await runCli(args, (line) => lines.push(line));
    return { status: 0, out: lines.join("\n") };
  } catch (error) {
    // Only a refusal is an answer; anything else is a failure of the test.
    if (!(error instanceof CliFailure)) throw error;
    return { status: 1, out: [...lines, `signpost: ${error.message}`].join("\n") };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const cliEnv = { SIGNPOST_DATA_DIR: dataDir, DATABASE_URL: "", SIGNPOST_MASTER_KEY: "" };
function signpost(...args: string[]) {
  return inProcess(cliEnv, ...args);
}

describe("npx signpost", () => {
  const db = createDb(`file:${join(dataDir, "signpost.db")}`);
  afterAll(async () => {
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("--version answers; a database that does not exist is an error unless --create", async () => {
    const version = signpostWith(env, "--version");
    expect(version.status).toBe(0);
    expect(version.out).toMatch(/^signpost \d+\.\d+\.\d+ \(node /);
    // The program exits 1 and says why on stderr…
    const refusedProgram = signpostWith(env, "migrate");
    expect(refusedProgram.status).toBe(1);
    expect(refusedProgram.out).toMatch(/^signpost: .*signpost\.db does not exist/m);
    // …and so does every command that needs the database.
    for (const command of [["migrate"], ["seed"], ["list-agents"]]) {
      const refused = await signpost(...command);
      expect(refused.status, command.join(" ")).toBe(1);
      expect(refused.out).toMatch(/signpost\.db does not exist/);
    }
    const missingPostgres = await inProcess(
      { ...cliEnv, DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/signpost_missing_${Date.now()}` },
      "migrate",
    );
    // (Only meaningful where PostgreSQL answers; elsewhere the connection error is the answer.)
    expect(missingPostgres.status).toBe(1);
  }, 300_000);

  it("seeds a fresh data directory once; demo.json, the database and the keys are 0600", async () => {
    // The program, as an operator runs it: its umask makes everything it writes owner-only.
    const seeded = signpostWith(env, "seed", "--create");
    expect(seeded.out).toContain("Seeded.");
    expect(seeded.status).toBe(0);
    // Everything the CLI writes into the data directory is owner-only (issue 8).
    for (const name of ["demo.json", "legacy.json", "master.key", "signpost.db"]) {
      expect((statSync(join(dataDir, name)).mode & 0o777).toString(8), name).toBe("600");
    }
    const again = await signpost("seed");
    expect(again.out).toContain("nothing seeded");
    expect(again.status).toBe(0);
  }, 300_000);

  it("creates a user, mints a key for them and revokes it", async () => {
    const created = await signpost(
      "create-user",
      "--tenant",
      "acme",
      "--email",
      "Bob@Acme.test",
      "--name",
      "Bob",
      "--role",
      "support",
      "--password",
      "bob-password-1",
    );
    expect(created.status).toBe(0);
    const bob = await db.user.findUniqueOrThrow({ where: { email: "bob@acme.test" } });
    expect(bob.role).toBe("support");
    expect(await verifyPassword("bob-password-1", bob.passwordHash)).toBe(true);

    expect(
      (
        await signpost(
          "create-user",
          "--tenant",
          "acme",
          "--email",
          "x@acme.test",
          "--name",
          "X",
          "--role",
          "boss",
        )
      ).status,
    ).toBe(1);
    expect(
      (
        await signpost(
          "create-user",
          "--tenant",
          "nope",
          "--email",
          "y@acme.test",
          "--name",
          "Y",
          "--role",
          "member",
        )
      ).out,
    ).toContain("--tenant-name");

    const minted = await signpost("mint-key", "--email", "bob@acme.test", "--name", "Bob's helper");
    expect(minted.status).toBe(0);
    const key = /Key \(shown once\): (\S+)/.exec(minted.out)?.[1] ?? "";
    const agent = await db.agent.findUniqueOrThrow({ where: { keyHash: hashAgentKey(key) } });
    expect(agent).toMatchObject({ userId: bob.id, tenantId: "acme", name: "Bob's helper", revokedAt: null });
    expect(readFileSync(join(dataDir, "signpost.db")).includes(Buffer.from(key))).toBe(false);

    const listed = await signpost("list-agents", "--tenant", "acme");
    expect(listed.out).toContain(agent.keyPrefix);
    expect(listed.out).not.toContain(key);

    expect((await signpost("revoke-key", agent.keyPrefix)).status).toBe(0);
    const revoked = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(revoked.revokedAt).not.toBeNull();
    expect((await signpost("revoke-key", "sp_nothere")).status).toBe(1);

    // Issue 14: the CLI's admin changes go through the console's functions and are audited
    // like the console's: one row each, face `cli`, no Signpost user, the operator's account.
    const rows = await db.auditEvent.findMany({ where: { face: "cli" }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => [r.operation, r.tenantId, r.userId, r.outcome])).toEqual([
      ["user.created", "acme", null, "applied"],
      ["agent.created", "acme", null, "applied"],
      ["agent.revoked", "acme", null, "applied"],
    ]);
    expect(rows[0]?.target).toBe(bob.id);
    expect(rows[0]?.arguments).toMatchObject({ email: "bob@acme.test", role: "support", sign_in: "given" });
    expect(JSON.stringify(rows[0]?.arguments)).not.toContain("bob-password-1");
    expect(rows[1]).toMatchObject({ target: agent.id });
    expect(rows[1]?.arguments).toMatchObject({ keyPrefix: agent.keyPrefix, operator: userInfo().username });
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[2]).toMatchObject({ target: agent.id });
  }, 300_000);

  it("creates a tenant with its first admin (audited, a generated password printed once)", async () => {
    const created = await signpost(
      "create-user",
      "--tenant",
      "initech",
      "--tenant-name",
      "Initech",
      "--email",
      "peter@initech.test",
      "--name",
      "Peter",
      "--role",
      "admin",
    );
    expect(created.status).toBe(0);
    const password = /Password: (\S+)/.exec(created.out)?.[1] ?? "";
    const peter = await db.user.findUniqueOrThrow({ where: { email: "peter@initech.test" } });
    expect(await verifyPassword(password, peter.passwordHash)).toBe(true);
    const rows = await db.auditEvent.findMany({ where: { face: "cli", tenantId: "initech" } });
    expect(rows.map((r) => r.operation)).toEqual(["tenant.created", "user.created"]);
    expect(JSON.stringify(rows)).not.toContain(password);
    // The same email again: a conflict, nothing written.
    const again = await signpost(
      "create-user",
      "--tenant",
      "initech",
      "--email",
      "peter@initech.test",
      "--name",
      "P",
      "--role",
      "member",
    );
    expect(again.status).toBe(1);
    expect(again.out).toContain("already exists");
    expect(await db.auditEvent.count({ where: { face: "cli", tenantId: "initech" } })).toBe(2);
  }, 300_000);
});

describe("npx signpost migrate while another process holds the SQLite file", () => {
  const dir = mkdtempSync(join(tmpdir(), "signpost-cli-busy-"));
  const file = join(dir, "signpost.db");
  const busyEnv = { ...cliEnv, SIGNPOST_DATA_DIR: dir };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("applies a pending migration and says how (Prisma's engine wants the file to itself), then has nothing to do", async () => {
    // A database one migration behind, in WAL mode as every Signpost database is.
    const migrations = listMigrations("sqlite");
    const setup = new Database(file);
    setup.pragma("journal_mode = WAL");
    setup.exec(
      `CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME, "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
    );
    for (const m of migrations.slice(0, -1)) {
      setup.exec(m.sql);
      setup
        .prepare(
          "INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, ?, ?, 1)",
        )
        .run(randomUUID(), m.checksum, new Date().toISOString(), m.name);
    }
    setup.close();
    // Another process holds it open the way a running server does (reading now and then).
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const D=require("better-sqlite3");const d=new D(${JSON.stringify(file)});d.prepare("SELECT count(*) FROM _prisma_migrations").get();console.log("holding");setInterval(()=>d.prepare("SELECT 1").get(),200);`,
      ],
      { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
      const applied = await inProcess(busyEnv, "migrate");
      expect(applied.out).not.toContain("WASM_ERROR");
      expect(applied.status).toBe(0);
      expect(applied.out).toContain(`applied ${migrations.at(-1)?.name}`);
      expect(applied.out).toContain("open in another process");
      const again = await inProcess(busyEnv, "migrate");
      expect(again.status).toBe(0);
      expect(again.out).toContain(`all ${migrations.length} applied, nothing to do`);
    } finally {
      holder.kill();
    }
    const check = new Database(file, { readonly: true });
    try {
      const names = check
        .prepare("SELECT migration_name FROM _prisma_migrations ORDER BY migration_name")
        .all();
      expect(names).toHaveLength(migrations.length);
    } finally {
      check.close();
    }
  }, 180_000);
});
