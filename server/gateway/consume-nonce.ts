import type { Db } from "../db/client";
import { isUniqueViolation } from "../engine/effect-ledger";

/**
 * Marks `nonce` used until `expiresAt`. True for the first caller on any instance sharing the
 * database, false for every later one: the primary key decides, so two instances racing on the
 * same nonce cannot both win. Expired rows are pruned on the way, which keeps the table at most
 * one TTL of nonces.
 */
export async function consumeNonce(db: Db, nonce: string, expiresAt: Date): Promise<boolean> {
  await db.consumedNonce.deleteMany({ where: { expiresAt: { lt: new Date() } } });
  try {
    await db.consumedNonce.create({ data: { nonce, expiresAt } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
