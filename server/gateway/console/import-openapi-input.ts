import { z } from "zod";
import { OPENAPI_LIMITS } from "../../connectors/openapi/openapi-limits";

/** The console's "Add a system" request: a document (uploaded text) or its URL, and the import's settings. */
export const importOpenApiInputSchema = z
  .object({
    id: z.string().trim().min(2).max(30).describe("The connector's id and URI scheme"),
    baseUrl: z.string().trim().min(1).max(300).describe("Where the API answers"),
    readRoles: z
      .array(z.enum(["admin", "support", "member"]))
      .min(1)
      .max(3),
    title: z.string().trim().max(60).optional(),
    document: z
      .string()
      .max(OPENAPI_LIMITS.maxDocumentBytes)
      .optional()
      .describe("The document's text (JSON or YAML)"),
    url: z.string().trim().max(1000).optional().describe("Where to fetch the document (http or https)"),
    idempotencyHeader: z.string().trim().max(60).optional(),
    // POSTs the admin marks as reads (the import report suggests them): read forms, no approval.
    readOperations: z.array(z.string().trim().min(1).max(100)).max(200).optional(),
    apply: z.boolean().describe("false: preview what it adds or changes; true: import"),
  })
  .strict()
  .refine((v) => (v.document === undefined) !== (v.url === undefined), "send either the document or its URL");

export type ImportOpenApiInput = z.infer<typeof importOpenApiInputSchema>;

/** A request body larger than this is refused before it is read (the document plus JSON escaping). */
export const MAX_IMPORT_BODY_BYTES = OPENAPI_LIMITS.maxDocumentBytes * 2;
