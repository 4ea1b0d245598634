// stays-whole: a table of documents and the loader's answer to each.
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { callFor } from "@/server/connectors/openapi/api-request-capability";
import { baseUrlProblem } from "@/server/connectors/openapi/base-url-problem";
import { diffOperations } from "@/server/connectors/openapi/diff-operations";
import { generateOpenApiConnector } from "@/server/connectors/openapi/generate-openapi-connector";
import { nextPage, paginationOf, pagingQuery } from "@/server/connectors/openapi/listing-pagination";
import { loadOpenApiDocument } from "@/server/connectors/openapi/load-openapi-document";
import { readOpenApiSource } from "@/server/connectors/openapi/read-openapi-source";

const EXAMPLES = join(process.cwd(), "node_modules/@readme/oas-examples");
const doc = (path: string) => readFileSync(join(EXAMPLES, path), "utf8");
const dir = mkdtempSync(join(tmpdir(), "signpost-openapi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tiny = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: "3.0.3", info: { title: "Tiny", version: "1" }, paths, ...extra });
const ok = { responses: { "200": { description: "ok" } } };

describe("bad documents get a typed, clear refusal", () => {
  test("invalid JSON and invalid YAML", async () => {
    const json = await loadOpenApiDocument('{"openapi": "3.0.0", "paths": {');
    expect(json).toMatchObject({ ok: false, problem: { code: "invalid_syntax" } });
    if (!json.ok) expect(json.problem.message).toMatch(/not valid JSON/);
    const yaml = await loadOpenApiDocument("openapi: 3.0.0\npaths:\n  /a: [unclosed\n  - x: : y");
    expect(yaml).toMatchObject({ ok: false, problem: { code: "invalid_syntax" } });
    const scalar = await loadOpenApiDocument("just words");
    expect(scalar).toMatchObject({ ok: false, problem: { code: "not_openapi" } });
  });

  test("an unresolvable $ref, and a $ref that leaves the document (never fetched)", async () => {
    const missing = await loadOpenApiDocument(
      tiny({
        "/a": {
          get: {
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } },
              },
            },
          },
        },
      }),
    );
    expect(missing).toMatchObject({ ok: false, problem: { code: "unresolvable_ref" } });
    if (!missing.ok) expect(missing.problem.message).toContain("#/components/schemas/Nope");
    const external = await loadOpenApiDocument(
      tiny({
        "/a": {
          get: {
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "http://127.0.0.1:1/x.json" } } },
              },
            },
          },
        },
      }),
    );
    expect(external).toMatchObject({ ok: false, problem: { code: "unresolvable_ref" } });
    const file = await loadOpenApiDocument(tiny({ "/a": { get: { $ref: "./other.yaml#/get" } } }));
    expect(file).toMatchObject({ ok: false, problem: { code: "unresolvable_ref" } });
  });

  test("duplicate operationIds", async () => {
    const dup = await loadOpenApiDocument(
      tiny({
        "/a": { get: { operationId: "listThings", ...ok } },
        "/b": { get: { operationId: "listThings", ...ok } },
      }),
    );
    expect(dup).toMatchObject({ ok: false, problem: { code: "duplicate_operation_id" } });
    if (!dup.ok) expect(dup.problem.message).toContain("listThings");
  });

  test("a 50 MB document is refused from its size, before anything is read or parsed", async () => {
    const big = join(dir, "huge.json");
    const fd = openSync(big, "w");
    ftruncateSync(fd, 50 * 1024 * 1024); // 50 MB of zero bytes: not even JSON
    closeSync(fd);
    const read = await readOpenApiSource(big);
    expect(read).toMatchObject({ ok: false, problem: { code: "too_large" } });
    if (!read.ok) expect(read.problem.message).toMatch(/50\.0 MB, over the 16 MB/);
    // Text already in memory (an upload) is measured before it is parsed.
    const text = await loadOpenApiDocument(`{"openapi":"3.0.0","x":"${"a".repeat(17 * 1024 * 1024)}"}`);
    expect(text).toMatchObject({ ok: false, problem: { code: "too_large" } });
  });

  test("not OpenAPI, an unknown version, no operations, a missing file, another scheme", async () => {
    expect(
      await loadOpenApiDocument(JSON.stringify({ openapi: "4.0.0", info: {}, paths: {} })),
    ).toMatchObject({ ok: false, problem: { code: "not_openapi" } });
    expect(await loadOpenApiDocument(tiny({}))).toMatchObject({
      ok: false,
      problem: { code: "no_operations" },
    });
    // Invalid for a strict validator, readable all the same: imported, the problem a warning.
    const lenient = await loadOpenApiDocument(tiny({ "/a": { get: { responses: "nope" } } }));
    expect(lenient).toMatchObject({
      ok: true,
      value: { warnings: [expect.stringMatching(/^#\/paths\/~1a\/get/)] },
    });
    expect(await readOpenApiSource(join(dir, "absent.json"))).toMatchObject({
      ok: false,
      problem: { code: "unreadable" },
    });
    expect(await readOpenApiSource("file:///etc/passwd")).toMatchObject({
      ok: false,
      problem: { code: "unreadable" },
    });
  });

  test("a base URL must be http(s) and must not be Signpost itself", () => {
    const self = { origins: ["https://signpost.example.com", "http://localhost:3000"], ports: [3000] };
    expect(baseUrlProblem("ftp://api.example.com", self)).toMatch(/http\(s\)/);
    expect(baseUrlProblem("javascript:alert(1)", self)).toMatch(/http\(s\)/);
    expect(baseUrlProblem("https://signpost.example.com/api", self)).toMatch(/Signpost itself/);
    expect(baseUrlProblem("http://127.0.0.1:3000", self)).toMatch(/Signpost itself/);
    expect(baseUrlProblem("http://[::1]:3000/v1", self)).toMatch(/Signpost itself/);
    expect(baseUrlProblem("https://user:pw@api.example.com", self)).toMatch(/secrets/);
    expect(baseUrlProblem("http://127.0.0.1:4010", self)).toBeNull();
    expect(baseUrlProblem("https://api.example.com/v1", self)).toBeNull();
  });
});

describe("real documents become connectors", () => {
  const settings = (id: string) => ({
    id,
    baseUrl: "http://127.0.0.1:9",
    readRoles: ["admin" as const, "support" as const],
  });

  test("Swagger 2.0 is converted; YAML reads like JSON; the two give the same routes", async () => {
    const swagger = await loadOpenApiDocument(doc("2.0/json/petstore.json"));
    const yaml = await loadOpenApiDocument(doc("3.0/yaml/petstore.yaml"));
    expect(swagger.ok && yaml.ok).toBe(true);
    if (!swagger.ok || !yaml.ok) return;
    expect(swagger.value.sourceVersion).toBe("2.0");
    expect(swagger.value.document.openapi).toMatch(/^3\.0/);
    const a = generateOpenApiConnector(swagger.value, settings("pets"));
    const b = generateOpenApiConnector(yaml.value, settings("pets"));
    expect(a.routes.map((r) => r.pattern)).toEqual(b.routes.map((r) => r.pattern));
    expect(a.routes.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        "pets://pet/findByStatus",
        "pets://pet/{petId}",
        "pets://pet/create",
        "pets://pet/{petId}/delete",
        "pets://store/order/{orderId}",
      ]),
    );
    // A form-encoded and a multipart body cannot be a browse form: skipped, and said why.
    expect(a.openapi.report.skipped.map((s) => `${s.method} ${s.path}`)).toEqual([
      "POST /pet/{petId}",
      "POST /pet/{petId}/uploadImage",
    ]);
    expect(a.secrets.map((s) => s.name)).toEqual(["petstore_auth", "api_key"]);
  });

  test("security schemes map to secrets; a cookie key cannot be applied and is reported", async () => {
    const loaded = await loadOpenApiDocument(doc("3.0/json/security.json"));
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, settings("sec"));
    expect(c.secrets.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        "apikey_header",
        "apikey_query",
        "basic",
        "bearer",
        "oauth2_clientcredentials",
      ]),
    );
    expect(c.secrets.find((s) => s.name === "oauth2_clientcredentials")?.description).toMatch(
      /client_id:client_secret/,
    );
    expect(c.openapi.report.unsupportedSchemes).toEqual([
      { name: "apiKey_cookie", why: "an API key in a cookie is not supported" },
    ]);
    expect(c.openapi.report.skipped.some((s) => /apiKey_cookie/.test(s.reason))).toBe(true);
  });

  test("3.1 with allOf wrappers, path parameters and writes; pagination read from parameters", async () => {
    const loaded = await loadOpenApiDocument(doc("3.1/json/train-travel.json"));
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, settings("train"));
    expect(c.routes.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        "train://stations",
        "train://trips",
        "train://bookings",
        "train://bookings/create",
        "train://bookings/{bookingId}",
        "train://bookings/{bookingId}/payment/create",
      ]),
    );
    expect(c.routes.find((r) => r.pattern === "train://stations")?.startPoint).toBe(true);
    const trek = await loadOpenApiDocument(doc("3.0/json/star-trek.json"));
    if (!trek.ok) throw new Error(trek.problem.message);
    const t = generateOpenApiConnector(trek.value, settings("trek"));
    const search = t.openapi.plans.get(
      [...t.openapi.plans.values()].find((p) => p.op.method === "get" && p.op.path === "/animal/search")?.op
        .id ?? "",
    );
    expect(search?.pagination).toEqual({
      kind: "page",
      pageParam: "pageNumber",
      sizeParam: "pageSize",
      zeroBased: true,
    });
  });

  test("a re-import names what it adds, removes and changes", async () => {
    const before = JSON.parse(
      tiny({ "/a": { get: { operationId: "a", ...ok } }, "/b": { get: { operationId: "b", ...ok } } }),
    );
    const after = JSON.parse(
      tiny({
        "/a": {
          get: {
            operationId: "a",
            parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
            ...ok,
          },
        },
        "/c": { post: { operationId: "c", ...ok } },
      }),
    );
    expect(diffOperations(before, after)).toEqual({
      added: ["POST /c (c)"],
      removed: ["GET /b (b)"],
      changed: ["GET /a (a)"],
      unchanged: 0,
      security: [],
    });
  });

  test("nothing from the document becomes structure: descriptions are escaped, odd segments skipped", async () => {
    const loaded = await loadOpenApiDocument(
      tiny({
        "/things": {
          get: {
            operationId: "listThings",
            summary: "Things [click](javascript:alert(1))",
            description: "<img src=x onerror=alert(1)> | cell",
            ...ok,
          },
        },
        "/weird path/{id}": { get: { operationId: "weird", ...ok } },
        "/files/v{n}-{name}": { get: { operationId: "mixed", ...ok } },
        // A format suffix is no mix: planned without it, the API sent the document's path.
        "/posts/{id}.json": { get: { operationId: "post", ...ok } },
      }),
    );
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, settings("tiny"));
    const route = c.routes.find((r) => r.pattern === "tiny://things");
    // Escaped: `\<img`, `\(1\)`, `\|` are text in any markdown reader.
    expect(route?.description).not.toMatch(/(^|[^\\])[<|]/);
    expect(route?.description).toContain("\\<img");
    expect(c.openapi.report.skipped.map((s) => s.id).sort()).toEqual(["mixed", "weird"]);
    expect(c.routes.some((r) => r.pattern === "tiny://posts/{id}")).toBe(true);
  });
});

describe("paging follows the document's conventions", () => {
  const op = (names: Array<[string, Record<string, unknown>?, string?]>) =>
    ({
      id: "list",
      method: "get",
      path: "/things",
      summary: "",
      description: "",
      tags: [],
      deprecated: false,
      parameters: names.map(([name, schema = { type: "integer" }, description = ""]) => ({
        name,
        in: "query",
        required: false,
        description,
        schema,
      })),
      security: [],
    }) as Parameters<typeof paginationOf>[0];

  test("page/per_page, zero-based pageNumber, limit/offset and cursors", () => {
    const page = paginationOf(op([["page"], ["per_page"]]));
    expect(pagingQuery(page, 3, 20)).toEqual({ page: 3, per_page: 20 });
    const zero = paginationOf(
      op([["pageNumber", { type: "integer" }, "Zero-based page number"], ["pageSize"]]),
    );
    expect(pagingQuery(zero, 1, 10)).toEqual({ pageNumber: 0, pageSize: 10 });
    const offset = paginationOf(op([["offset"], ["limit"]]));
    expect(pagingQuery(offset, 3, 25)).toEqual({ offset: 50, limit: 25 });
    const cursor = paginationOf(op([["starting_after", { type: "string" }], ["limit"]]));
    expect(pagingQuery(cursor, 1, 10, "obj_9")).toEqual({ starting_after: "obj_9", limit: 10 });
  });

  test("the next page from the answer: next_page, totals, lastPage, a full page, cursors and Link headers", () => {
    const page = paginationOf(op([["page"], ["per_page"]]));
    expect(nextPage(page, { body: { data: [], next_page: null }, link: null }, 20, 1, 20)).toBeNull();
    expect(nextPage(page, { body: { next_page: 2 }, link: null }, 20, 1, 20)).toEqual({ page: 2 });
    expect(nextPage(page, { body: { total: 45 }, link: null }, 20, 2, 20)).toEqual({ page: 3 });
    expect(nextPage(page, { body: { total: 45 }, link: null }, 5, 3, 20)).toBeNull();
    expect(nextPage(page, { body: { page: { lastPage: true } }, link: null }, 20, 1, 20)).toBeNull();
    expect(nextPage(page, { body: [], link: null }, 20, 1, 20)).toEqual({ page: 2 });
    const cursor = paginationOf(op([["cursor", { type: "string" }]]));
    expect(nextPage(cursor, { body: { next_cursor: "abc123" }, link: null }, 10, 1, 10)).toEqual({
      cursor: "abc123",
    });
    expect(
      nextPage(
        cursor,
        { body: { links: { next: "https://api.example.com/things?cursor=c2" } }, link: null },
        10,
        1,
        10,
      ),
    ).toEqual({ cursor: "c2" });
    expect(
      nextPage(
        cursor,
        { body: [], link: '<https://api.example.com/things?cursor=c3>; rel="next"' },
        10,
        1,
        10,
      ),
    ).toEqual({ cursor: "c3" });
    // A repeated token ends the listing; a token that is not plain text is never used.
    expect(nextPage(cursor, { body: { next_cursor: "abc123" }, link: null }, 10, 2, 10, "abc123")).toBeNull();
    expect(
      nextPage(cursor, { body: { next_cursor: "a b](javascript:x)" }, link: null }, 10, 1, 10),
    ).toBeNull();
  });
});

describe("size", () => {
  /** A document of `n` resources, each with a listing, a detail page and a create form. */
  function manyResources(n: number): string {
    const paths: Record<string, unknown> = {};
    const item = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } };
    for (let i = 0; i < n; i++) {
      paths[`/resource${i}`] = {
        get: {
          operationId: `list${i}`,
          summary: `List resource ${i}`,
          tags: [`group${i % 20}`],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { type: "array", items: item } } },
            },
          },
        },
        post: {
          operationId: `create${i}`,
          requestBody: { content: { "application/json": { schema: item } } },
          responses: { "201": { description: "made" } },
        },
      };
      paths[`/resource${i}/{id}`] = {
        get: {
          operationId: `get${i}`,
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
        },
      };
    }
    return tiny(paths);
  }

  test("1,500 operations load and generate (time logged, measured by the bench); past the operation cap an import is refused", async () => {
    const started = Date.now();
    const loaded = await loadOpenApiDocument(manyResources(500));
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, {
      id: "big",
      baseUrl: "http://127.0.0.1:9",
      readRoles: ["admin"],
    });
    const ms = Date.now() - started;
    // Its pages and forms, and its start page.
    expect(c.routes).toHaveLength(1501);
    expect(c.openapi.report).toMatchObject({ listings: 500, details: 500, forms: 500 });
    console.log(`[openapi] 1,500 operations loaded and generated in ${ms} ms`);
    expect(await loadOpenApiDocument(manyResources(1_700))).toMatchObject({
      ok: false,
      problem: { code: "too_many_operations" },
    });
  });
});

describe("the request an approved write sends", () => {
  test("path, query and body from the form; the action key in the document's idempotency header, else the admin's", async () => {
    const loaded = await loadOpenApiDocument(
      tiny({
        "/orders/{id}/refunds": {
          post: {
            operationId: "refund",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              { name: "notify", in: "query", schema: { type: "boolean" } },
              { name: "Idempotency-Key", in: "header", schema: { type: "string" } },
            ],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["amount"],
                    properties: { amount: { type: "integer", minimum: 1 } },
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
        "/notes": {
          post: {
            operationId: "note",
            requestBody: {
              content: {
                "application/json": { schema: { type: "object", properties: { text: { type: "string" } } } },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      }),
    );
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, {
      id: "shop2",
      baseUrl: "http://127.0.0.1:9",
      readRoles: ["admin"],
      idempotencyHeader: "X-Request-Key",
    });
    const refund = c.openapi.plans.get("refund");
    const note = c.openapi.plans.get("note");
    if (!refund || !note) throw new Error("plans missing");
    // The idempotency header is Signpost's to fill: never a form field.
    expect(refund.fields?.map((f) => f.name)).toEqual(["id", "notify", "amount"]);
    expect(callFor(refund, { id: "o1", notify: true, amount: 5 }, "sp_a1_v1", "X-Request-Key")).toMatchObject(
      {
        path: { id: "o1" },
        query: { notify: true },
        body: { amount: 5 },
        idempotencyHeader: "Idempotency-Key",
        idempotencyKey: "sp_a1_v1",
      },
    );
    expect(callFor(note, { text: "hi" }, "sp_a2_v1", "X-Request-Key")).toMatchObject({
      body: { text: "hi" },
      idempotencyHeader: "X-Request-Key",
    });
    expect(callFor(note, { text: "hi" }, "sp_a2_v1")).not.toHaveProperty("idempotencyKey");
  });
});

describe("paths that would spell the same route", () => {
  test("parameter names the route grammar refuses are renamed; look-alike paths keep the first", async () => {
    const loaded = await loadOpenApiDocument(
      tiny({
        "/pets/{PetId}": {
          get: {
            operationId: "getPet",
            parameters: [{ name: "PetId", in: "path", required: true, schema: { type: "string" } }],
            ...ok,
          },
        },
        "/pets/{_id}/toys": {
          get: {
            operationId: "toys",
            parameters: [{ name: "_id", in: "path", required: true, schema: { type: "string" } }],
            ...ok,
          },
        },
        "/a-b": { get: { operationId: "dash", ...ok } },
        "/a/b": { get: { operationId: "slash", ...ok } },
      }),
    );
    if (!loaded.ok) throw new Error(loaded.problem.message);
    const c = generateOpenApiConnector(loaded.value, {
      id: "odd",
      baseUrl: "http://127.0.0.1:9",
      readRoles: ["admin"],
    });
    expect(c.routes.map((r) => r.pattern).sort()).toEqual([
      "odd://",
      "odd://a-b",
      "odd://pets/{p0}",
      "odd://pets/{p0}/toys",
    ]);
    expect(c.openapi.report.skipped.map((s) => s.id)).toEqual(["slash"]);
    expect(c.openapi.plans.get("getPet")?.params).toEqual({ p0: "PetId" });
  });
});
