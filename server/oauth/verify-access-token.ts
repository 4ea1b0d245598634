import { createLocalJWKSet, type JWK, jwtVerify } from "jose";
import { AGENT_CLAIM } from "./connected-apps";
import { signingKeys } from "./signing-keys";

export interface VerifiedAccessToken {
  sub: string;
  clientId: string;
  scopes: string[];
  /** The connected app (agent row) the token was issued to. */
  agentId: string;
  expiresAt: number;
}

/**
 * Verifies a JWT access token Signpost's authorization server issued (RFC 9068): signature by
 * one of this deployment's keys, issuer, audience = this MCP endpoint (RFC 8707: a token for
 * another resource is refused), expiry. Null for anything else; the reason is not told.
 */
export function createAccessTokenVerifier(options: { masterKey: Buffer; issuer: string; resource: string }) {
  const jwks = createLocalJWKSet({ keys: signingKeys(options.masterKey).publicJwks as JWK[] });
  return async function verifyAccessToken(token: string): Promise<VerifiedAccessToken | null> {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        audience: options.resource,
        typ: "at+jwt",
        algorithms: ["EdDSA"],
        requiredClaims: ["sub", "exp", "iat", "client_id", AGENT_CLAIM],
      });
      const agentId = payload[AGENT_CLAIM];
      if (
        typeof payload.sub !== "string" ||
        typeof payload.client_id !== "string" ||
        typeof agentId !== "string"
      )
        return null;
      return {
        sub: payload.sub,
        clientId: payload.client_id,
        scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
        agentId,
        expiresAt: payload.exp ?? 0,
      };
    } catch {
      return null;
    }
  };
}
