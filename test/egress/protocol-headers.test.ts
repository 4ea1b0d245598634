import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { OpenAPIV3 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiOperations } from "@/server/connectors/openapi/api-operations";
import { EgressError } from "@/server/egress/egress-fetch";
import { egressRequest } from "@/server/egress/egress-request";
import { allowEgressTo } from "../helpers/allow-egress";

/**
 * A connector's request names its path, query, body and its system's own headers; the connection's
 * headers (Host, Connection, Transfer-Encoding…) are the egress layer's. A Host chosen by a caller
 * would reach another virtual host behind an allowed address with the tenant's credential.
 */
describe("egress: the connection's own headers are never the caller's", () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.end("ok");
  });
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    allowEgressTo(base);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test.each([
    ["Host", "internal-admin.corp"],
    ["host", "internal-admin.corp"],
    ["Connection", "upgrade"],
    ["Transfer-Encoding", "chunked"],
    ["Proxy-Authorization", "Basic eA=="],
  ])("%s is refused before anything is sent, as not sent", async (name, value) => {
    const before = seen.length;
    const error = await egressRequest(new URL(`${base}/x`), { headers: { [name]: value } }).catch((e) => e);
    expect(error).toBeInstanceOf(EgressError);
    expect((error as EgressError).sent).toBe(false);
    expect(seen.length).toBe(before);
  });

  test("a system's own header goes out; the Host is the URL's", async () => {
    const answer = await egressRequest(new URL(`${base}/x`), { headers: { "X-Api-Version": "2" } });
    await answer.body.dump();
    expect(seen.at(-1)?.["x-api-version"]).toBe("2");
    expect(seen.at(-1)?.host).toBe(new URL(base).host);
  });

  test("an imported document's Host header parameter is not a value anyone fills", () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/items": {
          get: {
            operationId: "listItems",
            parameters: [
              { name: "Host", in: "header", schema: { type: "string" } },
              { name: "X-Tenant-Region", in: "header", schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
        "/pinned": {
          get: {
            operationId: "pinned",
            parameters: [{ name: "Host", in: "header", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    } as unknown as OpenAPIV3.Document;
    const { operations, skipped } = apiOperations(doc);
    const list = operations.find((o) => o.id === "listItems");
    expect(list?.parameters.map((p) => p.name)).toEqual(["X-Tenant-Region"]);
    expect(operations.some((o) => o.id === "pinned")).toBe(false);
    expect(skipped.find((s) => s.id === "pinned")?.reason).toMatch(/protocol header Host/);
  });
});
