// stays-whole: the imported forms' tests over one started world and one recording API server (a start costs
// more than the file).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { callFor } from "@/server/connectors/openapi/api-request-capability";
import type { OpenApiConnector } from "@/server/connectors/openapi/generate-openapi-connector";
import { operationUrl } from "@/server/connectors/openapi/openapi-http-client";
import { coerceFields, formFieldName } from "@/server/connectors/openapi/schema-form-fields";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { listConnectors, updateConnectorSettings } from "@/server/gateway/console/manage-connectors";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { allowEgressTo } from "../../helpers/allow-egress";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * The kinds of form issue 20 found refusing every submission, and the systems with no way in,
 * on small documents that have each kind, through a real MCP client: a name the submit tool
 * refused, an object field, a default shown but not applied, an integer path value from the URI,
 * a credential documented as a header parameter; rows under HAL's `_embedded` linked by `gid`;
 * every GET under a path parameter; a document that yields nothing.
 */

const ok = { "200": { description: "ok" } };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const FORMS = {
  openapi: "3.0.3",
  info: { title: "Kinds of forms", version: "1" },
  paths: {
    "/objects": {
      post: {
        operationId: "createObject",
        parameters: [
          { name: "api-version", in: "query", required: true, schema: { type: "string" } },
          { name: "X-ListenAPI-Key", in: "header", required: true, schema: { type: "string" } },
        ],
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["objectName", "spec", "status"],
            properties: {
              objectName: { type: "string" },
              spec: { type: "object", required: ["size"], properties: { size: { type: "integer" } } },
              labels: { type: "array", items: { type: "string" } },
              status: { type: "string", enum: ["read", "sent"], default: "read" },
            },
          }),
        },
        responses: ok,
      },
    },
    "/dcim/sites/{id}": {
      get: {
        operationId: "getSite",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: ok,
      },
      delete: {
        operationId: "deleteSite",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: ok,
      },
    },
  },
};

const HAL = {
  openapi: "3.0.3",
  info: { title: "Workspace", version: "1" },
  paths: {
    "/teams/{team_gid}/projects": {
      get: {
        operationId: "listProjects",
        parameters: [{ name: "team_gid", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "ok",
            ...json({
              type: "object",
              properties: {
                _links: { type: "object", properties: { self: { type: "object" } } },
                _embedded: {
                  type: "object",
                  properties: {
                    projects: {
                      type: "array",
                      items: {
                        type: "object",
                        properties: {
                          gid: { type: "string" },
                          label: { type: "string" },
                          color: { type: "string" },
                        },
                      },
                    },
                  },
                },
              },
            }),
          },
        },
      },
    },
    "/teams/{team_gid}/projects/{project_gid}": {
      get: {
        operationId: "getProject",
        parameters: [
          { name: "team_gid", in: "path", required: true, schema: { type: "string" } },
          { name: "project_gid", in: "path", required: true, schema: { type: "string" } },
        ],
        responses: ok,
      },
    },
  },
};

let w: McpWorld;
let api: Server;
let apiUrl: string;
const seen: string[] = [];
const headersSeen: IncomingHttpHeaders[] = [];
let sam: Client;

beforeAll(async () => {
  w = await createMcpWorld("sqlite");
  api = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    headersSeen.push(req.headers);
    res.writeHead(200, { "content-type": "application/hal+json" });
    res.end(
      JSON.stringify(
        req.url?.endsWith("/projects")
          ? {
              _links: { self: { href: "x" } },
              _embedded: { projects: [{ gid: "p_981", label: "Roadmap", color: "red" }] },
            }
          : { gid: "p_981", label: "Roadmap" },
      ),
    );
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  allowEgressTo(`http://127.0.0.1:${(api.address() as AddressInfo).port}`);
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  for (const [id, doc] of [
    ["forms", FORMS],
    ["work", HAL],
  ] as const) {
    const done = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify(doc),
        id,
        baseUrl: apiUrl,
        readRoles: ["admin", "support"],
        secrets: id === "forms" ? { "X-ListenAPI-Key": "lk_live_4hT9wQ" } : {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    if (!done.ok) throw new Error(done.message);
  }
  await createPermissionRule(
    w.db,
    {
      sessionId: "t",
      tenantId: "acme",
      tenantName: "Acme",
      userId: w.person.adam.userId as string,
      email: "adam@acme.test",
      name: "Adam",
      role: "admin",
    },
    { subjectType: "role", subjectId: "support", verb: "start", pattern: "forms://**", decision: "allow" },
  );
  sam = await w.connect(w.keys.sam, { faces: "browse,actions" });
}, 90_000);

afterAll(async () => {
  await w?.close();
  await new Promise<void>((resolve) => api?.close(() => resolve()));
});

const call = (name: string, args: Record<string, unknown>) => sam.callTool({ name, arguments: args });

describe("every generated form can be submitted", () => {
  test("one rule for names: the document's name in snake case, the API sent its own", async () => {
    expect(formFieldName("X-ListenAPI-Key")).toBe("x_listen_api_key");
    expect(formFieldName("objectName")).toBe("object_name");
    expect(formFieldName("api-version")).toBe("api_version");
    expect(formFieldName("$filter")).toBe("filter");
    expect(formFieldName("2fa")).toBe("f_2fa");
    expect(formFieldName("object_name", new Set(["object_name"]))).toBe("object_name_2");
    const form = text(await call("navigate", { uri: "forms://objects/create" }));
    expect(form).toMatch(/^ {2}object_name: /m);
    expect(form).toMatch(/^ {2}api_version: /m);
  });

  test("a credential documented as a header parameter is a secret, never a field, and is sent", async () => {
    const form = text(await call("navigate", { uri: "forms://objects/create" }));
    expect(form).not.toMatch(/listen/i);
    const connector = (await tenantConnectors(w.db, "acme")).find(
      (c) => c.id === "forms",
    ) as OpenApiConnector;
    expect(connector.openapi.report.secrets.map((s) => s.name)).toEqual(["x_listenapi_key"]);
  });

  test("object and list fields take JSON (as values or as JSON text); a shown default is applied", async () => {
    const page = await call("submit", {
      uri: "forms://objects/create",
      fields: { api_version: "2024-01-01", object_name: "box", spec: '{"size": 3}', labels: ["a", "b"] },
    });
    expect(sc(page).outcome, text(page)).not.toBe("rejected");
    expect((sc(page).links as unknown as string[]).some((l) => /^actions:\/\/[^/]+$/.test(l))).toBe(true);
    const asObject = await call("submit", {
      uri: "forms://objects/create",
      fields: { api_version: "2024-01-01", object_name: "box", spec: { size: 3 } },
    });
    expect(sc(asObject).outcome, text(asObject)).not.toBe("rejected");
    const connector = (await tenantConnectors(w.db, "acme")).find(
      (c) => c.id === "forms",
    ) as OpenApiConnector;
    const plan = connector.openapi.plans.get("createObject");
    if (!plan) throw new Error("no plan");
    const sent = callFor(plan, { api_version: "v", object_name: "box", spec: { size: 3 }, status: "read" });
    expect(sent.query).toEqual({ "api-version": "v" });
    expect(sent.body).toEqual({ objectName: "box", spec: { size: 3 }, status: "read" });
    expect(seen.filter((s) => !s.startsWith("GET"))).toEqual([]);
  });

  test("an integer path parameter is read from the URI as an integer", async () => {
    const page = await call("submit", { uri: "forms://dcim/sites/1/delete", fields: {} });
    expect(sc(page).outcome, text(page)).not.toBe("rejected");
    expect(text(page)).not.toMatch(/must be a integer/);
  });

  test("a path value of any kind round-trips: a negative id, a name with reserved characters (percent-encoded)", async () => {
    // Prism's made-up ids are often the most negative integer: one segment like any other.
    const negative = await call("submit", { uri: "forms://dcim/sites/-9007199254740991/delete", fields: {} });
    expect(sc(negative).outcome, text(negative)).not.toBe("rejected");
    expect(text(negative)).toContain("-9007199254740991");
    const opened = sc(
      await call("submit", { uri: "work://?open=0", fields: { team_gid: "Q3 team?#1" } }),
    ) as unknown as { links: string[] };
    expect(opened.links).toContain("work://teams/Q3%20team%3F%231/projects");
    const before = seen.length;
    const listing = await call("navigate", { uri: "work://teams/Q3%20team%3F%231/projects" });
    expect(sc(listing).outcome, text(listing)).toBe("applied");
    expect(seen.slice(before)).toEqual(["GET /teams/Q3%20team%3F%231/projects"]);
    expect(sc(listing).links as unknown as string[]).toContain(
      "work://teams/Q3%20team%3F%231/projects/p_981",
    );
    // Another spelling of the same value is the same page; a separator or a dot-segment is none.
    const lower = await call("navigate", { uri: "work://teams/Q3%20team%3f%231/projects/p_981" });
    expect(sc(lower).outcome, text(lower)).toBe("applied");
    expect(seen.at(-1)).toBe("GET /teams/Q3%20team%3F%231/projects/p_981");
    for (const uri of ["work://teams/a%2Fb/projects", "work://teams/%2E%2E/projects"]) {
      const refused = await call("navigate", { uri });
      expect(sc(refused).outcome, uri).toBe("not_found");
    }
    const slash = sc(
      await call("submit", { uri: "work://?open=0", fields: { team_gid: "a/../b" } }),
    ) as unknown as { outcome: string };
    expect(slash.outcome).toBe("rejected");
    expect(seen.slice(before).every((s) => s.startsWith("GET /teams/Q3"))).toBe(true);
  });
});

describe("every system has a way in", () => {
  test("a system whose every GET is under a path parameter: its start page asks for it, rows under _embedded open by gid", async () => {
    const found = sc(await call("search", { query: "workspace projects" })) as unknown as { links: string[] };
    const opener = found.links.find((l) => l.startsWith("work://?open="));
    expect(opener, JSON.stringify(found.links)).toBeTruthy();
    const start = text(await call("navigate", { uri: "work://" }));
    expect(start).toContain(`(${opener})`);
    const opened = sc(await call("submit", { uri: opener, fields: { team_gid: "t_12" } })) as unknown as {
      links: string[];
    };
    expect(opened.links).toContain("work://teams/t_12/projects");
    const listing = await call("navigate", { uri: "work://teams/t_12/projects" });
    expect(text(listing)).toMatch(/\| gid \| label \| color \|/);
    expect(sc(listing).links as unknown as string[]).toContain("work://teams/t_12/projects/p_981");
  });

  test("search says which system each page belongs to", async () => {
    const page = text(await call("search", { query: "workspace projects" }));
    expect(page).toMatch(/\(Workspace\)/);
  });

  test("paths that carry the operation in a fragment or a query (AWS's /#Action=…) import as pages and forms that work", async () => {
    const done = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Hash paths", version: "1" },
          paths: {
            "/#Action=DescribeThings": {
              get: {
                operationId: "DescribeThings",
                parameters: [
                  {
                    name: "Action",
                    in: "query",
                    required: true,
                    schema: { type: "string", enum: ["DescribeThings"] },
                  },
                  {
                    name: "Version",
                    in: "query",
                    required: true,
                    schema: { type: "string", enum: ["2016-11-15"] },
                  },
                ],
                responses: ok,
              },
            },
            "/#X-Amz-Target=ThingService.CountThings": {
              post: {
                operationId: "CountThings",
                parameters: [
                  {
                    name: "X-Amz-Target",
                    in: "header",
                    required: true,
                    schema: { type: "string", enum: ["ThingService.CountThings"] },
                  },
                ],
                requestBody: {
                  required: true,
                  ...json({
                    type: "object",
                    required: ["domain"],
                    properties: { domain: { type: "string" } },
                  }),
                },
                responses: ok,
              },
            },
            "/things?kind=red": { get: { operationId: "redThings", responses: ok } },
          },
        }),
        id: "hashes",
        baseUrl: apiUrl,
        readRoles: ["admin", "support"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    if (!done.ok) throw new Error(done.message);
    expect(done.value.report.skipped).toEqual([]);
    const before = seen.length;
    const page = await call("navigate", { uri: "hashes://DescribeThings" });
    expect(sc(page).outcome, text(page)).toBe("applied");
    const red = await call("navigate", { uri: "hashes://things/red" });
    expect(sc(red).outcome, text(red)).toBe("applied");
    // The path sent is the document's without its fragment or query; the pairs are parameters.
    expect(seen.slice(before).map((s) => s.replace(/Version=[^&]+&?/, "V&"))).toEqual([
      "GET /?Action=DescribeThings&V&",
      "GET /things?kind=red",
    ]);
    const form = text(await call("navigate", { uri: "hashes://CountThings/create" }));
    expect(form).toContain("ThingService.CountThings");
    await createPermissionRule(w.db, adminContext(), {
      subjectType: "role",
      subjectId: "support",
      verb: "start",
      pattern: "hashes://**",
      decision: "allow",
    });
    const sent = await call("submit", { uri: "hashes://CountThings/create", fields: { domain: "d1" } });
    expect(sc(sent).outcome, text(sent)).not.toBe("rejected");
    expect(text(sent)).toMatch(/approv/i);
    const connector = (await tenantConnectors(w.db, "acme")).find(
      (c) => c.id === "hashes",
    ) as OpenApiConnector;
    const plan = connector.openapi.plans.get("CountThings");
    if (!plan) throw new Error("no CountThings form");
    const url = operationUrl(apiUrl, callFor(plan, coerceFields(plan.fields ?? [], { domain: "d1" })));
    expect(String(url)).toBe(`${apiUrl}/`);
    expect(callFor(plan, coerceFields(plan.fields ?? [], { domain: "d1" })).headers).toEqual({
      "X-Amz-Target": "ThingService.CountThings",
    });
    expect(seen.slice(before).filter((s) => !s.startsWith("GET"))).toEqual([]);
  });

  test("an import with nothing usable is refused with why, nothing stored", async () => {
    const refused = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Mixed paths", version: "1" },
          paths: {
            "/files/v{n}-{name}": {
              get: {
                parameters: [
                  { name: "n", in: "path", required: true, schema: { type: "string" } },
                  { name: "name", in: "path", required: true, schema: { type: "string" } },
                ],
                responses: ok,
              },
            },
            "/#": { post: { responses: ok } },
          },
        }),
        id: "mixed",
        baseUrl: apiUrl,
        readRoles: ["admin"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    expect(refused).toMatchObject({ ok: false, details: { code: "nothing_usable" } });
    if (!refused.ok)
      expect(refused.message).toMatch(
        /None of its 2 operations can become a page or a form: its path segment/,
      );
    expect(await w.db.importedConnector.count({ where: { connector: "mixed" } })).toBe(0);
  });
});

describe("schemas that refer to themselves", () => {
  test("a write whose request schema refers to itself (an invoice's payments name their invoice) is prepared for approval, no crash", async () => {
    const done = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Loops", version: "1" },
          components: {
            schemas: {
              Invoice: {
                type: "object",
                required: ["number"],
                properties: {
                  number: { type: "string" },
                  payments: { type: "array", items: { $ref: "#/components/schemas/Payment" } },
                },
              },
              Payment: { type: "object", properties: { invoice: { $ref: "#/components/schemas/Invoice" } } },
            },
          },
          paths: {
            "/invoices": {
              post: {
                operationId: "newInvoice",
                requestBody: { required: true, ...json({ $ref: "#/components/schemas/Invoice" }) },
                responses: ok,
              },
            },
          },
        }),
        id: "loops",
        baseUrl: apiUrl,
        readRoles: ["admin", "support"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    if (!done.ok) throw new Error(done.message);
    await createPermissionRule(w.db, adminContext(), {
      subjectType: "role",
      subjectId: "support",
      verb: "start",
      pattern: "loops://**",
      decision: "allow",
    });
    const page = await call("submit", { uri: "loops://invoices/create", fields: { number: "INV-1" } });
    expect(sc(page).outcome, text(page)).not.toBe("rejected");
    expect(text(page)).toMatch(/approv/i);
  });
});

describe("headers every request needs are connector settings", () => {
  test("a required non-credential header on every operation is set once by an admin, shown on the Connectors page, sent with every request, never a form field", async () => {
    const code = { name: "ApiIntegrationCode", in: "header", required: true, schema: { type: "string" } };
    const user = { name: "UserName", in: "header", required: true, schema: { type: "string" } };
    const secret = { name: "Secret", in: "header", required: true, schema: { type: "string" } };
    const impersonate = {
      name: "ImpersonationResourceId",
      in: "header",
      required: false,
      schema: { type: "integer" },
    };
    // Set by the HTTP client itself: never a setting, whatever the document says.
    const contentType = { name: "Content-Type", in: "header", required: true, schema: { type: "string" } };
    const doc = {
      openapi: "3.0.3",
      info: { title: "Tickets desk", version: "1" },
      paths: {
        "/Tickets": {
          get: {
            operationId: "listTickets",
            parameters: [code, user, secret, impersonate, contentType],
            responses: ok,
          },
          post: {
            operationId: "createTicket",
            parameters: [code, user, secret, impersonate, contentType],
            requestBody: {
              required: true,
              ...json({ type: "object", properties: { title: { type: "string" } } }),
            },
            responses: ok,
          },
        },
      },
    };
    const request = {
      text: JSON.stringify(doc),
      id: "desk",
      baseUrl: apiUrl,
      readRoles: ["admin", "support"],
      secrets: { Secret: "desk-secret-8Hq2" },
      self: { origins: [w.url], ports: [] },
    };
    const unknown = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      { ...request, settings: { Version: "1" } },
      { apply: false },
    );
    expect(unknown).toMatchObject({ ok: false, details: { code: "unknown_setting" } });
    const forged = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      { ...request, settings: { user_name: "a\r\nX-Evil: 1" } },
      { apply: false },
    );
    expect(forged).toMatchObject({ ok: false, details: { code: "unknown_setting" } });
    const done = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      { ...request, settings: { ApiIntegrationCode: "INT-42" } },
      { apply: true },
    );
    if (!done.ok) throw new Error(done.message);
    expect(done.value.report.settings.map((s) => [s.name, s.header])).toEqual([
      ["api_integration_code", "ApiIntegrationCode"],
      ["user_name", "UserName"],
    ]);
    expect(done.value.report.secrets.map((s) => s.name)).toEqual(["secret"]);
    expect(done.value.settingsSet).toEqual(["api_integration_code"]);
    // Not a field of any form (the optional header stays one).
    const form = text(await call("navigate", { uri: "desk://Tickets/create" }));
    expect(form).not.toMatch(/integration|user_name|secret/i);
    expect(form).toMatch(/impersonation_resource_id/);
    // One setting unset: nothing is sent, and the page says which and where it is set.
    const before = seen.length;
    const unset = await call("navigate", { uri: "desk://Tickets" });
    expect(sc(unset).outcome).toBe("rejected");
    expect(text(unset)).toMatch(/user_name is not set; an admin sets it on the Connectors page/);
    expect(seen.length).toBe(before);
    // The Connectors page lists them with their values; saving one there sends it from then on.
    const admin = adminContext();
    const view = (await listConnectors(w.db, admin)).find((c) => c.connector === "desk");
    expect(view?.declaredSettings?.map((s) => s.name)).toEqual(["api_integration_code", "user_name"]);
    expect(view?.settings).toMatchObject({ api_integration_code: "INT-42" });
    const refused = await updateConnectorSettings(w.db, admin, "desk", {
      baseUrl: apiUrl,
      values: { nope: "x" },
    });
    expect(refused.ok).toBe(false);
    const saved = await updateConnectorSettings(w.db, admin, "desk", {
      baseUrl: apiUrl,
      values: { user_name: "dispatcher@acme.test" },
    });
    expect(saved.ok).toBe(true);
    const listed = await call("navigate", { uri: "desk://Tickets" });
    expect(sc(listed).outcome, text(listed)).toBe("applied");
    expect(headersSeen.at(-1)).toMatchObject({
      apiintegrationcode: "INT-42",
      username: "dispatcher@acme.test",
      secret: "desk-secret-8Hq2",
    });
  });
});

function adminContext() {
  return {
    sessionId: "t",
    tenantId: "acme",
    tenantName: "Acme",
    userId: w.person.adam.userId as string,
    email: "adam@acme.test",
    name: "Adam",
    role: "admin" as const,
  };
}
