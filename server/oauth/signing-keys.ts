import { createHash, createPrivateKey, createPublicKey, hkdfSync, type JsonWebKey } from "node:crypto";

/**
 * The OAuth signing keys, derived from the master key: every instance that shares the master key
 * signs and verifies with the same keys, and nothing more is stored or shipped. Rotation:
 * raise SIGNPOST_OAUTH_KEY_GENERATION; tokens signed by the previous generation still verify
 * until they expire (they live minutes), new ones are signed by the new one.
 */
export interface SigningKeys {
  /** Private JWKs, newest first: oidc-provider signs with the first. */
  privateJwks: JsonWebKey[];
  /** The same keys without their private part, for verification. */
  publicJwks: JsonWebKey[];
}

// PKCS#8 prefix of an Ed25519 private key, followed by its 32-byte seed.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

function keyOfGeneration(masterKey: Buffer, generation: number) {
  const seed = Buffer.from(hkdfSync("sha256", masterKey, "signpost", `oauth-signing-key:${generation}`, 32));
  const key = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const publicJwk = createPublicKey(key).export({ format: "jwk" });
  const kid = createHash("sha256").update(`${publicJwk.x}`).digest("base64url").slice(0, 16);
  const meta = { kid, use: "sig", alg: "EdDSA" };
  return { privateJwk: { ...key.export({ format: "jwk" }), ...meta }, publicJwk: { ...publicJwk, ...meta } };
}

export function oauthKeyGeneration(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.SIGNPOST_OAUTH_KEY_GENERATION ?? "1");
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

export function signingKeys(masterKey: Buffer, generation = oauthKeyGeneration()): SigningKeys {
  const keys = [generation, generation - 1].filter((g) => g >= 1).map((g) => keyOfGeneration(masterKey, g));
  return { privateJwks: keys.map((k) => k.privateJwk), publicJwks: keys.map((k) => k.publicJwk) };
}

/** Cookie-signing keys for the authorization server, derived the same way. */
export function cookieKeys(masterKey: Buffer): string[] {
  return [Buffer.from(hkdfSync("sha256", masterKey, "signpost", "oauth-cookies", 32)).toString("base64url")];
}
