import type { Db } from "../db/client";
import { isUniqueViolation } from "../engine/effect-ledger";
import { decryptSecret, encryptSecret, masterKey } from "./vault";

/** The sealed value's place in the vault's additional data: no tenant's secret can be moved here. */
const CHECK_REF = { tenantId: "", connector: "signpost", name: "master_key_check" };
const CHECK_ID = "master";
const CHECK_VALUE = "signpost master key check v1";

export type MasterKeyCheck =
  | { ok: true; sealed: "found" | "created" | "not_yet" }
  | { ok: false; reason: "other_key" | "secrets_unreadable"; message: string };

/** What an operator is told when this instance's key is not the one the database was written with. */
export const SHARE_MASTER_KEY_HINT =
  "Every instance on one database must run with the same SIGNPOST_MASTER_KEY: set it to the value the first instance uses (its SIGNPOST_MASTER_KEY, or the contents of its <data dir>/master.key) and start again.";

/**
 * Whether this process's master key is the one the database's secrets were written with.
 * The first instance seals a known value with its key (MasterKeyCheck); every later start opens
 * it. A database from before the check existed is judged by its secrets: if there are some and
 * not one opens, the key is another one. `seal: false` (readiness probes) never writes. Racing first starts are settled by the primary key: one
 * seal wins and the others must open it.
 */
export async function checkMasterKey(
  db: Db,
  key: Buffer = masterKey(),
  options: { seal?: boolean } = {},
): Promise<MasterKeyCheck> {
  const sealed = await db.masterKeyCheck.findUnique({ where: { id: CHECK_ID } });
  if (sealed) return opens(sealed, key) ? { ok: true, sealed: "found" } : otherKey();
  const secrets = await db.secret.findMany({ take: 20, orderBy: { createdAt: "asc" } });
  if (secrets.length > 0) {
    const readable = secrets.filter((s) => {
      try {
        decryptSecret({ tenantId: s.tenantId, connector: s.connector, name: s.name }, s, key);
        return true;
      } catch {
        return false;
      }
    });
    if (readable.length === 0)
      return {
        ok: false,
        reason: "secrets_unreadable",
        message: `This instance's master key cannot decrypt the connector secrets stored in the database (${secrets.length} tried, none opened). ${SHARE_MASTER_KEY_HINT}`,
      };
  }
  // A readiness probe only reads: the seal is written by a start.
  if (options.seal === false) return { ok: true, sealed: "not_yet" };
  try {
    await db.masterKeyCheck.create({ data: { id: CHECK_ID, ...encryptSecret(CHECK_REF, CHECK_VALUE, key) } });
    return { ok: true, sealed: "created" };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await db.masterKeyCheck.findUniqueOrThrow({ where: { id: CHECK_ID } });
    return opens(winner, key) ? { ok: true, sealed: "found" } : otherKey();
  }
}

function opens(sealed: { ciphertext: string; nonce: string; tag: string }, key: Buffer): boolean {
  try {
    return decryptSecret(CHECK_REF, sealed, key) === CHECK_VALUE;
  } catch {
    return false;
  }
}

function otherKey(): MasterKeyCheck {
  return {
    ok: false,
    reason: "other_key",
    message: `This instance's master key is not the one this database was set up with: it could not read the connector secrets, and secrets it wrote could not be read by the other instances. ${SHARE_MASTER_KEY_HINT}`,
  };
}
