import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { allowEgressTo } from "./allow-egress";
import type { RecordedRequest } from "./prism-server";

/**
 * A small real HTTP API with soft deletes, and its OpenAPI document: a deleted note still reads
 * back (200, `deleted: true`), as on many real APIs. It records every request it received, so a
 * test counts what reached it; `holdDeletesMs` applies a DELETE at once and answers it that much
 * later (past the client's deadline: the write happened, its answer is lost).
 */
export interface NotesApi {
  url: string;
  requests: RecordedRequest[];
  holdDeletesMs: number;
  writes(method?: string): RecordedRequest[];
  stop(): Promise<void>;
}

const note = {
  type: "object",
  properties: { id: { type: "string" }, text: { type: "string" }, deleted: { type: "boolean" } },
};
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };

export const NOTES_DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Notes", version: "1.0.0" },
  paths: {
    "/notes": {
      get: {
        operationId: "listNotes",
        responses: {
          "200": {
            description: "notes",
            content: { "application/json": { schema: { type: "array", items: note } } },
          },
        },
      },
      post: {
        operationId: "createNote",
        parameters: [{ name: "X-Note-Tag", in: "header", schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
            },
          },
        },
        responses: { "201": { description: "created", content: { "application/json": { schema: note } } } },
      },
    },
    "/notes/{id}": {
      get: {
        operationId: "getNote",
        parameters: [id],
        responses: { "200": { description: "the note", content: { "application/json": { schema: note } } } },
      },
      delete: {
        operationId: "deleteNote",
        parameters: [id],
        responses: { "204": { description: "deleted" } },
      },
    },
    "/tags/{id}": {
      get: {
        operationId: "getTag",
        parameters: [id],
        responses: { "200": { description: "the tag", content: { "application/json": { schema: note } } } },
      },
      // This one declares an idempotency key: the API answers a repeated key with the first answer.
      delete: {
        operationId: "deleteTag",
        parameters: [id, { name: "Idempotency-Key", in: "header", schema: { type: "string" } }],
        responses: { "204": { description: "deleted" } },
      },
    },
  },
};

export async function startNotesApi(): Promise<NotesApi> {
  const requests: RecordedRequest[] = [];
  const deleted = new Set<string>();
  const api = { holdDeletesMs: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      const path = (req.url ?? "").split("?")[0] ?? "";
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      const one = /^\/(notes|tags)\/([^/]+)$/.exec(path);
      if (req.method === "GET" && one)
        return json(200, { id: one[2], text: "a note", deleted: deleted.has(path) });
      if (req.method === "GET" && path === "/notes") return json(200, []);
      if (req.method === "POST" && path === "/notes")
        return json(201, { id: `n${requests.length}`, ...JSON.parse(body || "{}") });
      if (req.method === "DELETE" && one) {
        deleted.add(path); // applied at once; soft: it still reads back
        const answer = () => {
          if (!res.writableEnded) {
            res.writeHead(204);
            res.end();
          }
        };
        if (api.holdDeletesMs > 0) setTimeout(answer, api.holdDeletesMs).unref();
        else answer();
        return;
      }
      json(404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  allowEgressTo(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get holdDeletesMs() {
      return api.holdDeletesMs;
    },
    set holdDeletesMs(ms: number) {
      api.holdDeletesMs = ms;
    },
    writes: (method?: string) => requests.filter((r) => (method ? r.method === method : r.method !== "GET")),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
