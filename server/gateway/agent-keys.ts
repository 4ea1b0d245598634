import { createHash, randomBytes } from "node:crypto";

/**
 * Agent API keys: `sp_<8-char prefix>_<32-char secret>`, letters and digits only (easy to
 * copy, safe in headers and shells). The database stores the sha256 of the whole key and the
 * visible prefix (`sp_xxxxxxxx`) so people can tell keys apart; the key itself is shown once.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const PREFIX_CHARS = 8;
const SECRET_CHARS = 32; // ~190 bits

export const AGENT_KEY_PATTERN = /^sp_[A-Za-z0-9]{8}_[A-Za-z0-9]{32}$/;

export type MintedAgentKey = { key: string; keyHash: string; keyPrefix: string };

/** Uniform random characters from ALPHABET (rejection sampling: no modulo bias). */
function randomChars(count: number): string {
  let out = "";
  while (out.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 248 && out.length < count) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function mintAgentKey(): MintedAgentKey {
  const keyPrefix = `sp_${randomChars(PREFIX_CHARS)}`;
  const key = `${keyPrefix}_${randomChars(SECRET_CHARS)}`;
  return { key, keyHash: hashAgentKey(key), keyPrefix };
}

/** sha256 hex of the whole key: what Agent.keyHash stores and lookups compare. */
export function hashAgentKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The visible prefix of a well-formed key, else null. */
export function agentKeyPrefix(key: string): string | null {
  return AGENT_KEY_PATTERN.test(key) ? key.slice(0, 3 + PREFIX_CHARS) : null;
}
