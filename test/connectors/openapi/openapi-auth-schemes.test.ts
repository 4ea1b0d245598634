import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  generateOpenApiConnector,
  type OpenApiConnector,
} from "@/server/connectors/openapi/generate-openapi-connector";
import { loadOpenApiDocument } from "@/server/connectors/openapi/load-openapi-document";
import type { OpenApiAdapter } from "@/server/connectors/openapi/openapi-adapter";
import { EGRESS_FAILURE } from "@/server/egress/egress-fetch";
import { allowEgressTo } from "../../helpers/allow-egress";
import {
  type RecordingProxy,
  type RunningPrism,
  servePrism,
  startRecordingProxy,
} from "../../helpers/prism-server";

/**
 * Each kind of security scheme, applied to real requests: `@readme/oas-examples`' security
 * document (one operation per scheme) mocked by Prism, which answers 401 when a secured operation
 * comes without its credentials. Its client-credentials token URL is pointed at a small local
 * token endpoint, so the token is fetched server-side for real.
 */

const SOURCE = join(process.cwd(), "node_modules/@readme/oas-examples/3.0/json/security.json");
let dir: string;
let prism: RunningPrism;
let proxy: RecordingProxy;
let tokens: Server;
const tokenRequests: Array<{ authorization?: string; body: string }> = [];
let connector: OpenApiConnector;

const SECRETS = {
  apikey_query: "q_key_7Hn2Lp9",
  apikey_header: "h_key_4Rt8Wq1",
  basic: "ann:s3cret-pw",
  bearer: "bearer_tok_9Xc3Vb",
  oauth2_clientcredentials: "client-7:client-secret-5",
};

function adapter(secrets: Record<string, string>): OpenApiAdapter {
  return connector.createAdapter({ baseUrl: proxy.url, secrets });
}

function planOf(method: string, path: string) {
  const plan = [...connector.openapi.plans.values()].find(
    (p) => p.op.method === method && p.op.path === path,
  );
  if (!plan) throw new Error(`no plan for ${method} ${path}`);
  return plan;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "signpost-auth-"));
  tokens = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      tokenRequests.push({ authorization: req.headers.authorization, body });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: "cc_access_3Fg7", token_type: "Bearer", expires_in: 600 }));
    });
  });
  await new Promise<void>((resolve) => tokens.listen(0, "127.0.0.1", resolve));
  allowEgressTo(`http://127.0.0.1:${(tokens.address() as AddressInfo).port}`);
  const doc = JSON.parse(readFileSync(SOURCE, "utf8"));
  doc.components.securitySchemes.oauth2_clientCredentials.flows.clientCredentials.tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/oauth/token`;
  const file = join(dir, "security.json");
  writeFileSync(file, JSON.stringify(doc));
  prism = await servePrism(file);
  proxy = await startRecordingProxy(prism.url);
  const loaded = await loadOpenApiDocument(JSON.stringify(doc));
  if (!loaded.ok) throw new Error(loaded.problem.message);
  connector = generateOpenApiConnector(loaded.value, { id: "sec", baseUrl: proxy.url, readRoles: ["admin"] });
}, 120_000);

afterAll(async () => {
  await proxy?.stop();
  await prism?.stop();
  await new Promise<void>((resolve) => (tokens ? tokens.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe("security schemes applied to requests (Prism checks them)", () => {
  test("an API key in the query and in a header", async () => {
    const a = adapter(SECRETS);
    const read = await a.send({
      operation: planOf("get", "/anything/apiKey").op,
      path: {},
      query: {},
      headers: {},
    });
    expect(read.kind).toBe("ok");
    expect(proxy.requests.at(-1)?.path).toBe(`/anything/apiKey?apiKey=${SECRETS.apikey_query}`);
    const write = await a.send({
      operation: planOf("put", "/anything/apiKey").op,
      path: {},
      query: {},
      headers: {},
    });
    expect(write.kind).toBe("ok");
    expect(proxy.requests.at(-1)?.headers["x-api-key"]).toBe(SECRETS.apikey_header);
  });

  test("HTTP basic and bearer", async () => {
    const a = adapter(SECRETS);
    expect(
      (await a.send({ operation: planOf("post", "/anything/basic").op, path: {}, query: {}, headers: {} }))
        .kind,
    ).toBe("ok");
    expect(proxy.requests.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from(SECRETS.basic).toString("base64")}`,
    );
    expect(
      (await a.send({ operation: planOf("post", "/anything/bearer").op, path: {}, query: {}, headers: {} }))
        .kind,
    ).toBe("ok");
    expect(proxy.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRETS.bearer}`);
  });

  test("OAuth2 client credentials: the token is fetched server-side once, then sent as a bearer", async () => {
    const a = adapter(SECRETS);
    const op = planOf("put", "/anything/oauth2").op;
    expect((await a.send({ operation: op, path: {}, query: {}, headers: {} })).kind).toBe("ok");
    expect((await a.send({ operation: op, path: {}, query: {}, headers: {} })).kind).toBe("ok");
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]?.authorization).toBe(
      `Basic ${Buffer.from("client-7:client-secret-5").toString("base64")}`,
    );
    expect(tokenRequests[0]?.body).toBe("grant_type=client_credentials&scope=write%3Athings");
    expect(proxy.requests.at(-1)?.headers.authorization).toBe("Bearer cc_access_3Fg7");
  });

  test("without its secret a call is not sent, and says which secret to set; optional auth goes without", async () => {
    const a = adapter({});
    const before = proxy.requests.length;
    const answer = await a.send({
      operation: planOf("post", "/anything/basic").op,
      path: {},
      query: {},
      headers: {},
    });
    expect(answer).toEqual({
      kind: "refused",
      message: expect.stringContaining("no secret is set for basic"),
    });
    expect(proxy.requests.length).toBe(before);
    const optional = await a.send({
      operation: planOf("get", "/anything/optional-auth").op,
      path: {},
      query: {},
      headers: {},
    });
    expect(optional.kind).toBe("ok");
  });

  test("a token endpoint or an API that does not answer is named in the answer", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const doc = JSON.parse(readFileSync(SOURCE, "utf8"));
    doc.components.securitySchemes.oauth2_clientCredentials.flows.clientCredentials.tokenUrl = `${nobody}/oauth/token`;
    const loaded = await loadOpenApiDocument(JSON.stringify(doc));
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, {
      id: "sec2",
      baseUrl: proxy.url,
      readRoles: ["admin"],
    });
    const op = planOf("put", "/anything/oauth2").op;
    const before = proxy.requests.length;
    const noToken = await c
      .createAdapter({ baseUrl: proxy.url, secrets: SECRETS })
      .send({ operation: op, path: {}, query: {}, headers: {} });
    expect(noToken).toEqual({
      kind: "unavailable",
      message: `the token endpoint of oauth2_clientcredentials (${nobody}/oauth/token) could not be reached: ${EGRESS_FAILURE}`,
    });
    expect(proxy.requests.length).toBe(before);
    const noApi = await c
      .createAdapter({ baseUrl: `${nobody}/v1`, secrets: SECRETS })
      .send({ operation: planOf("get", "/anything/apiKey").op, path: {}, query: {}, headers: {} });
    expect(noApi).toEqual({
      kind: "unavailable",
      message: `the API at ${nobody}/v1 did not answer: ${EGRESS_FAILURE}`,
    });
  });

  test("a path parameter can never climb out of the API's path; any other value is sent as one encoded segment", async () => {
    const loaded = await loadOpenApiDocument(
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {
          "/files/{name}": {
            get: {
              parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      }),
    );
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, {
      id: "files",
      baseUrl: `${proxy.url}/api`,
      readRoles: ["admin"],
    });
    const op = [...c.openapi.plans.values()][0]?.op;
    if (!op) throw new Error("no operation");
    const a = c.createAdapter({ baseUrl: `${proxy.url}/api`, secrets: {} });
    const before = proxy.requests.length;
    for (const name of ["..", ".", "a/b", "a\\b", "x\r\ny", ""])
      expect((await a.send({ operation: op, path: { name }, query: {}, headers: {} })).kind, name).toBe(
        "refused",
      );
    expect(proxy.requests.length).toBe(before);
    await a.send({ operation: op, path: { name: "%2e%2e" }, query: {}, headers: {} });
    expect(proxy.requests.at(-1)?.path).toBe("/api/files/%252e%252e");
    // Reserved characters and a leading minus reach the API as the value, in one segment.
    await a.send({ operation: op, path: { name: "x?y=1#z" }, query: {}, headers: {} });
    expect(proxy.requests.at(-1)?.path).toBe("/api/files/x%3Fy%3D1%23z");
    await a.send({ operation: op, path: { name: "-9007199254740991" }, query: {}, headers: {} });
    expect(proxy.requests.at(-1)?.path).toBe("/api/files/-9007199254740991");
  });
});
