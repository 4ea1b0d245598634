import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { hashAgentKey } from "@/server/gateway/agent-keys";
import { verifyPassword } from "@/server/gateway/passwords";

// Protects the headless admin path: `npx signpost` migrates and seeds a fresh data directory,
// creates users, mints keys that are stored only as hashes, and revokes them.

const root = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "signpost-cli-"));
const env = { ...process.env, SIGNPOST_DATA_DIR: dataDir, DATABASE_URL: "", SIGNPOST_MASTER_KEY: "" };

function signpost(...args: string[]) {
  const result = spawnSync(process.execPath, [join(root, "bin/signpost.mjs"), ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("npx signpost", () => {
  const db = createDb(`file:${join(dataDir, "signpost.db")}`);
  afterAll(async () => {
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("seeds a fresh data directory once; demo.json, the database and the keys are 0600", () => {
    const seeded = signpost("seed");
    expect(seeded.out).toContain("Seeded.");
    expect(seeded.status).toBe(0);
    // Everything the CLI writes into the data directory is owner-only (issue 8).
    for (const name of ["demo.json", "legacy.json", "master.key", "signpost.db"]) {
      expect((statSync(join(dataDir, name)).mode & 0o777).toString(8), name).toBe("600");
    }
    const again = signpost("seed");
    expect(again.out).toContain("nothing seeded");
    expect(again.status).toBe(0);
  }, 120_000);

  it("creates a user, mints a key for them and revokes it", async () => {
    const created = signpost(
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
      signpost("create-user", "--tenant", "acme", "--email", "x@acme.test", "--name", "X", "--role", "boss")
        .status,
    ).toBe(1);
    expect(
      signpost("create-user", "--tenant", "nope", "--email", "y@acme.test", "--name", "Y", "--role", "member")
        .out,
    ).toContain("--tenant-name");

    const minted = signpost("mint-key", "--email", "bob@acme.test", "--name", "Bob's helper");
    expect(minted.status).toBe(0);
    const key = /Key \(shown once\): (\S+)/.exec(minted.out)?.[1] ?? "";
    const agent = await db.agent.findUniqueOrThrow({ where: { keyHash: hashAgentKey(key) } });
    expect(agent).toMatchObject({ userId: bob.id, tenantId: "acme", name: "Bob's helper", revokedAt: null });
    expect(readFileSync(join(dataDir, "signpost.db")).includes(Buffer.from(key))).toBe(false);

    const listed = signpost("list-agents", "--tenant", "acme");
    expect(listed.out).toContain(agent.keyPrefix);
    expect(listed.out).not.toContain(key);

    expect(signpost("revoke-key", agent.keyPrefix).status).toBe(0);
    const revoked = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(revoked.revokedAt).not.toBeNull();
    expect(signpost("revoke-key", "sp_nothere").status).toBe(1);
  }, 120_000);
});
