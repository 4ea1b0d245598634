import { consoleRoute, errorResponse, resultResponse } from "@/app/_lib/console-route";
import { readOpenApiSource } from "@/server/connectors/openapi/read-openapi-source";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import {
  importOpenApiInputSchema,
  MAX_IMPORT_BODY_BYTES,
} from "@/server/gateway/console/import-openapi-input";

export const dynamic = "force-dynamic";

/** The body as text, read only up to `max` bytes: an oversized upload is refused, never buffered whole. */
async function boundedText(req: Request, max: number): Promise<string | null> {
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > max) return null;
  const reader = req.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** "Add a system": preview or import an OpenAPI document for the admin's tenant. */
export const POST = consoleRoute({ roles: ["admin"] }, async ({ req, db, ctx }) => {
  const text = await boundedText(req, MAX_IMPORT_BODY_BYTES);
  if (text === null)
    return errorResponse("rejected", "The document is larger than an import may be (16 MB).", {
      code: "too_large",
    });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return errorResponse("invalid_request", "The body must be JSON.");
  }
  const parsed = importOpenApiInputSchema.safeParse(raw);
  if (!parsed.success)
    return errorResponse(
      "invalid_request",
      "The request is not valid.",
      parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    );
  const input = parsed.data;
  let document = input.document;
  if (input.url !== undefined) {
    if (!/^https?:\/\//i.test(input.url))
      return errorResponse("rejected", "A document URL must be http(s).", { code: "unreadable" });
    const read = await readOpenApiSource(input.url);
    if (!read.ok) return errorResponse("rejected", read.problem.message, { code: read.problem.code });
    document = read.value.text;
  }
  const port = Number(process.env.PORT ?? 3000);
  const origins = [new URL(req.url).origin, process.env.SIGNPOST_PUBLIC_URL].filter((o): o is string => !!o);
  return resultResponse(
    await importOpenApiConnector(
      db,
      ctx,
      {
        text: document ?? "",
        id: input.id,
        baseUrl: input.baseUrl,
        title: input.title,
        readRoles: input.readRoles,
        idempotencyHeader: input.idempotencyHeader,
        readOperations: input.readOperations,
        secrets: {},
        self: { origins, ports: [port] },
      },
      { apply: input.apply },
    ),
  );
});
