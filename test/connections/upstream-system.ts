import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { allowEgressTo } from "../helpers/allow-egress";

/** Each person's records at the system: the API answers only the token's subject's own. */
const RECORDS: Record<string, Array<{ id: string; owner: string; text: string }>> = {
  alice: [{ id: "n_a1", owner: "alice", text: "Alice's plan for Q3" }],
  adam: [{ id: "n_d1", owner: "adam", text: "Adam's budget notes" }],
};

export const UPSTREAM_CLIENT = { id: "signpost-notes", secret: "notes-client-secret-0123456789" };

/** An OpenAPI document of the API whose security is OAuth2 authorization code. */
function openapiDocument(base: string) {
  return {
    openapi: "3.0.3",
    info: { title: "Team Notes", version: "1.0.0" },
    servers: [{ url: base }],
    components: {
      securitySchemes: {
        notesOAuth: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: `${base.replace(/\/api$/, "")}/as/auth`,
              tokenUrl: `${base.replace(/\/api$/, "")}/as/token`,
              scopes: { "notes:read": "read your notes" },
            },
          },
        },
      },
    },
    security: [{ notesOAuth: ["notes:read"] }],
    paths: {
      "/notes": {
        post: {
          operationId: "createNote",
          summary: "Add a note",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["text"],
                  properties: { text: { type: "string", maxLength: 200 } },
                },
              },
            },
          },
          responses: { "201": { description: "the note" } },
        },
        get: {
          operationId: "listNotes",
          summary: "List my notes",
          responses: {
            "200": {
              description: "notes",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      notes: {
                        type: "array",
                        items: {
                          type: "object",
                          properties: {
                            id: { type: "string" },
                            owner: { type: "string" },
                            text: { type: "string" },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

/**
 * A system of the test's own: a real OAuth authorization server (oidc-provider, mounted at /as)
 * and a small API (/api) that checks every bearer token with that server and answers only its
 * subject's records. `revokeAll(sub)` is the person removing Signpost's access at the system.
 */
export async function startUpstreamSystem(redirectUri: string) {
  let dispatch: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.end();
  const server = createServer((req, res) => dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: UPSTREAM_CLIENT.id,
        client_secret: UPSTREAM_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    scopes: ["notes:read"],
    pkce: { required: () => true },
    features: { revocation: { enabled: true }, devInteractions: { enabled: true } },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    ttl: { AccessToken: 3600, RefreshToken: 86400, Grant: 86400, Session: 3600, Interaction: 600 },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  provider.on("server_error", (_ctx, err) => console.error("upstream AS error", err));
  let refreshes = 0;
  provider.on("grant.success", (ctx) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") refreshes += 1;
  });
  const callback = provider.callback();
  const tokensSeen: string[] = [];
  /** Notes the API created, each with the subject of the token that created it. */
  const writes: Array<{ id: string; owner: string; text: string }> = [];
  let served = 0;

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (path === "/openapi.json") return json(200, openapiDocument(`${origin}/api`));
    served += 1;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer) : undefined;
    if (!bearer || !token || token.isExpired) return json(401, { error: "invalid_token" });
    tokensSeen.push(bearer);
    const sub = String(token.accountId);
    if (path === "/notes" && req.method === "POST") {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const { text } = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { text?: string };
      const note = { id: `n${writes.length + 100}`, owner: sub, text: String(text) };
      writes.push(note);
      return json(201, note);
    }
    if (path === "/notes") return json(200, { notes: RECORDS[sub] ?? [] });
    // Only the system's own admins may read the audit: the person's rights there, not Signpost's.
    if (path === "/audit")
      return sub === "root" ? json(200, { entries: [] }) : json(403, { error: "forbidden" });
    return json(404, { error: "not_found" });
  }

  dispatch = (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (url.pathname.startsWith("/api/")) {
      void api(req, res, url.pathname.slice(4)).catch((e) => {
        console.error(e);
        res.writeHead(500);
        res.end();
      });
      return;
    }
    if (url.pathname.startsWith("/as/")) {
      // Mounted under /as the way Express mounts it (oidc-provider builds its URLs from it).
      const r = req as IncomingMessage & { originalUrl?: string; baseUrl?: string };
      r.originalUrl = req.url;
      r.baseUrl = "/as";
      req.url = (req.url ?? "/").slice(3);
      callback(req, res);
      return;
    }
    res.writeHead(404);
    res.end();
  };
  allowEgressTo(origin);
  return {
    origin,
    apiUrl: `${origin}/api`,
    authorizationUrl: `${origin}/as/auth`,
    tokenUrl: `${origin}/as/token`,
    revocationUrl: `${origin}/as/token/revocation`,
    provider,
    tokensSeen,
    writes,
    served: () => served,
    /** Refresh-token grants the authorization server answered. */
    refreshes: () => refreshes,
    /** The person removes Signpost's access at the system: every token of theirs stops working. */
    async revokeAll(sub: string) {
      // The memory adapter has no query by account: walk the tokens Signpost used. Without its
      // grant, the person's refresh token is refused too (invalid_grant).
      for (const t of tokensSeen) {
        const found = await provider.AccessToken.find(t);
        if (found && String(found.accountId) === sub) {
          const grant = found.grantId ? await provider.Grant.find(found.grantId) : undefined;
          await grant?.destroy();
          await found.destroy();
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
