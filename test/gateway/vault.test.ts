import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decryptSecret,
  encryptSecret,
  listSecrets,
  masterKey,
  parseMasterKey,
  readSecret,
  setSecret,
} from "@/server/gateway/vault";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "@/test/helpers/database";

// Protects: secrets are stored only as AES-256-GCM ciphertext, with a fresh nonce per write,
// bound to their tenant/connector/name; listing never reveals values; the master key comes
// from SIGNPOST_MASTER_KEY or a 0600 file generated once.

const KEY_HEX = "11".repeat(32);
process.env.SIGNPOST_MASTER_KEY = KEY_HEX;

describe("master key", () => {
  it("accepts 32 bytes as hex or base64 and rejects anything else", () => {
    const raw = Buffer.alloc(32, 7);
    expect(parseMasterKey(raw.toString("hex"))).toEqual(raw);
    expect(parseMasterKey(raw.toString("base64"))).toEqual(raw);
    expect(parseMasterKey(raw.toString("base64url"))).toEqual(raw);
    expect(() => parseMasterKey("short")).toThrow(/32 bytes/);
    expect(() => parseMasterKey(Buffer.alloc(31).toString("base64"))).toThrow(/32 bytes/);
    expect(() => parseMasterKey("zz".repeat(32))).toThrow(/32 bytes/);
  });

  it("is generated once into <data dir>/master.key with mode 0600 when not configured", () => {
    const dir = mkdtempSync(join(tmpdir(), "signpost-vault-"));
    try {
      const env = { SIGNPOST_DATA_DIR: join(dir, "nested") };
      const first = masterKey(env);
      const file = join(dir, "nested", "master.key");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first).toHaveLength(32);
      expect(parseMasterKey(readFileSync(file, "utf8"))).toEqual(first);
      expect(masterKey({ ...env, SIGNPOST_MASTER_KEY: "" })).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sealing", () => {
  const ref = { tenantId: "acme", connector: "shop", name: "api_key" };
  const key = Buffer.alloc(32, 1);

  it("uses a fresh nonce per write", () => {
    const a = encryptSecret(ref, "same value", key);
    const b = encryptSecret(ref, "same value", key);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(Buffer.from(a.nonce, "base64")).toHaveLength(12);
    expect(decryptSecret(ref, a, key)).toBe("same value");
  });

  it("fails to open under another tenant, connector, name or key, or when tampered", () => {
    const sealed = encryptSecret(ref, "sk_live_secret", key);
    // GCM's authentication refusing, not any error (a bad nonce or a typo would throw too).
    const refused = /unable to authenticate data/;
    expect(decryptSecret(ref, sealed, key)).toBe("sk_live_secret");
    expect(() => decryptSecret({ ...ref, tenantId: "globex" }, sealed, key)).toThrow(refused);
    expect(() => decryptSecret({ ...ref, connector: "helpdesk" }, sealed, key)).toThrow(refused);
    expect(() => decryptSecret({ ...ref, name: "other" }, sealed, key)).toThrow(refused);
    expect(() => decryptSecret(ref, sealed, Buffer.alloc(32, 2))).toThrow(refused);
    const flipped = Buffer.from(sealed.ciphertext, "base64");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => decryptSecret(ref, { ...sealed, ciphertext: flipped.toString("base64") }, key)).toThrow(
      refused,
    );
  });
});

describeEachProvider("vault on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.tenant.createMany({
      data: [
        { id: "acme", name: "Acme" },
        { id: "globex", name: "Globex" },
      ],
    });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("stores ciphertext only, reads the value back, and replaces it on a second write", async () => {
    const meta = await setSecret(t.db, {
      tenantId: "acme",
      connector: "shop",
      name: "api_key",
      value: "legacy-key-1",
      updatedById: "user_1",
    });
    expect(meta).toMatchObject({ connector: "shop", name: "api_key", set: true, updatedById: "user_1" });
    expect(JSON.stringify(meta)).not.toContain("legacy-key-1");
    const row = await t.db.secret.findFirstOrThrow({ where: { tenantId: "acme", connector: "shop" } });
    expect(JSON.stringify(row)).not.toContain("legacy-key-1");
    expect(await readSecret(t.db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBe(
      "legacy-key-1",
    );

    await setSecret(t.db, { tenantId: "acme", connector: "shop", name: "api_key", value: "legacy-key-2" });
    const again = await t.db.secret.findFirstOrThrow({ where: { tenantId: "acme", connector: "shop" } });
    expect(again.nonce).not.toBe(row.nonce);
    expect(await readSecret(t.db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBe(
      "legacy-key-2",
    );
    expect(await t.db.secret.count()).toBe(1);
  });

  it("keeps tenants apart: another tenant has nothing, and a copied row does not open", async () => {
    expect(await readSecret(t.db, { tenantId: "globex", connector: "shop", name: "api_key" })).toBeNull();
    const acme = await t.db.secret.findFirstOrThrow({ where: { tenantId: "acme" } });
    await t.db.secret.create({
      data: {
        tenantId: "globex",
        connector: "shop",
        name: "api_key",
        ciphertext: acme.ciphertext,
        nonce: acme.nonce,
        tag: acme.tag,
      },
    });
    await expect(
      readSecret(t.db, { tenantId: "globex", connector: "shop", name: "api_key" }),
    ).rejects.toThrow();
  });

  it("lists metadata, never values", async () => {
    await setSecret(t.db, { tenantId: "acme", connector: "helpdesk", name: "api_key", value: "hd-secret" });
    const list = await listSecrets(t.db, "acme");
    expect(list.map((s) => `${s.connector}/${s.name}`)).toEqual(["helpdesk/api_key", "shop/api_key"]);
    expect(list.every((s) => s.set === true && s.updatedAt instanceof Date)).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/hd-secret|legacy-key|ciphertext|nonce/);
  });
});
