import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { personOAuthClient } from "@/server/gateway/connections/person-oauth-client";

// Protects: a person's OAuth token and revocation requests obey the one egress policy. An admin
// (or an imported document) pointing the token endpoint at a loopback or metadata address gets a
// refusal, and nothing reaches that address.
describe("per-person OAuth requests and the egress policy", () => {
  let hits = 0;
  let url = "";
  const server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ access_token: "t", token_type: "bearer", expires_in: 60 }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const target of ["loopback", "metadata"] as const) {
    it(`refuses a token endpoint on a ${target} address before sending anything`, async () => {
      const base = target === "loopback" ? url : "http://169.254.169.254";
      const client = personOAuthClient(
        {
          personAuth: {
            kind: "oauth_authorization_code",
            authorizationUrl: `${base}/authorize`,
            tokenUrl: `${base}/token`,
            revocationUrl: `${base}/revoke`,
            scopes: ["read"],
          },
        } as never,
        { oauth_client_id: "signpost" },
        "a-client-secret-value",
      );
      if ("problem" in client) throw new Error(client.problem);
      // openid-client wraps the refusal ("something went wrong"); the cause is outboundFetch's answer for an address the policy refuses (it never says why, so a probe learns nothing).
      const refused = await oidc.refreshTokenGrant(client.config, "a-refresh-token").then(
        () => null,
        (error: Error & { cause?: Error }) => error,
      );
      expect(String(refused?.cause?.message ?? refused?.message)).toMatch(/could not be reached/);
      await expect(oidc.tokenRevocation(client.config, "an-access-token")).rejects.toThrow();
      expect(hits).toBe(0);
    });
  }
});
