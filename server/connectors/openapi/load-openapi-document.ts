import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3 } from "openapi-types";
import swagger2openapi from "swagger2openapi";
import { expandedSize } from "./expanded-size";
import { type OpenApiResult, problem } from "./openapi-import-problem";
import { OPENAPI_LIMITS } from "./openapi-limits";
import { parseOpenApiText } from "./parse-openapi-text";

/** A document that passed every check: as stored (OpenAPI 3, `$ref`s kept) and dereferenced. */
export interface LoadedOpenApi {
  /** OpenAPI 3.x JSON with its `$ref`s (Swagger 2.0 converted): what is stored and diffed. */
  document: Record<string, unknown>;
  /** The same with every internal `$ref` resolved (circular schemas stay circular objects). */
  api: OpenAPIV3.Document;
  /** `2.0` when it was converted from Swagger, else the document's `openapi` version. */
  sourceVersion: string;
  /**
   * What a strict validator finds wrong with it (one line each, at most 20): an import goes on
   * with these, as a mock server would serve the document, and shows them to the admin.
   */
  warnings: string[];
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** Every `$ref` value in the document that does not point inside it. */
function externalRefs(value: unknown, found: string[] = [], depth = 0): string[] {
  if (found.length >= 3 || depth > 200 || !value || typeof value !== "object") return found;
  if (Array.isArray(value)) {
    for (const item of value) externalRefs(item, found, depth + 1);
    return found;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && !child.startsWith("#")) found.push(child);
    else externalRefs(child, found, depth + 1);
  }
  return found;
}

/** operationIds used more than once: two operations one name would make one route serve two. */
function duplicateOperationIds(document: Record<string, unknown>): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (!item || typeof item !== "object") continue;
    for (const method of METHODS) {
      const id = (item[method] as { operationId?: unknown } | undefined)?.operationId;
      if (typeof id !== "string") continue;
      if (seen.has(id)) dup.add(id);
      seen.add(id);
    }
  }
  return [...dup];
}

function countOperations(document: Record<string, unknown>): number {
  let n = 0;
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>))
    if (item && typeof item === "object") for (const method of METHODS) if (item[method]) n++;
  return n;
}

/**
 * Reads, converts and validates a document. Each step refuses with a typed problem: the size
 * (before parsing), the syntax (JSON or YAML), the version (Swagger 2.0 is converted to
 * OpenAPI 3.0; 3.0 and 3.1 are read as they are), `$ref`s that leave the document (never
 * fetched: an import reads one document, no file or URL it names), the OpenAPI schema and
 * every internal `$ref` (the maintained parser), and duplicate operationIds.
 */
export async function loadOpenApiDocument(
  text: string,
  options: { maxBytes?: number } = {},
): Promise<OpenApiResult<LoadedOpenApi>> {
  const max = options.maxBytes ?? OPENAPI_LIMITS.maxDocumentBytes;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > max)
    return problem(
      "too_large",
      `The document is ${(bytes / 1024 / 1024).toFixed(1)} MB, over the ${max / 1024 / 1024} MB an import may be.`,
    );
  const parsed = parseOpenApiText(text);
  if (!parsed.ok) return parsed;
  let document = parsed.value;
  const external = externalRefs(document);
  if (external.length)
    return problem(
      "unresolvable_ref",
      `The document refers outside itself (${external.map((r) => JSON.stringify(r.slice(0, 80))).join(", ")}); bundle it into one document first — an import never fetches the files or URLs a document names.`,
    );
  const dup = duplicateOperationIds(document);
  if (dup.length)
    return problem(
      "duplicate_operation_id",
      `operationId ${dup
        .slice(0, 5)
        .map((d) => JSON.stringify(d.slice(0, 60)))
        .join(", ")} is used by more than one operation; each operation needs its own.`,
    );
  let sourceVersion: string;
  if (document.swagger === "2.0") {
    sourceVersion = "2.0";
    try {
      const converted = await swagger2openapi.convertObj(structuredClone(document), {
        patch: true,
        warnOnly: true,
        resolve: false,
      });
      document = converted.openapi as Record<string, unknown>;
    } catch (error) {
      return problem(
        "invalid_document",
        `The Swagger 2.0 document could not be converted: ${(error as Error).message.slice(0, 200)}.`,
      );
    }
  } else if (typeof document.openapi === "string" && /^3\.[01]\.\d+$/.test(document.openapi)) {
    sourceVersion = document.openapi;
  } else {
    return problem(
      "not_openapi",
      'The document is not OpenAPI 3.0, 3.1 or Swagger 2.0 (no `openapi: 3.x.y` or `swagger: "2.0"`).',
    );
  }
  const operations = countOperations(document);
  if (operations === 0) return problem("no_operations", "The document has no operations under `paths`.");
  if (operations > OPENAPI_LIMITS.maxOperations)
    return problem(
      "too_many_operations",
      `The document has ${operations} operations; one import may have ${OPENAPI_LIMITS.maxOperations}.`,
    );
  const expanded = expandedSize(document, OPENAPI_LIMITS.maxExpandedValues);
  if (expanded > OPENAPI_LIMITS.maxExpandedValues)
    return problem(
      "too_complex",
      `The document expands to more than ${OPENAPI_LIMITS.maxExpandedValues.toLocaleString("en")} values once its $refs are resolved (the limit of an import): its schemas refer to each other too many times over.`,
    );
  const parser = { resolve: { external: false } };
  let api: OpenAPIV3.Document;
  const warnings: string[] = [];
  try {
    // validate() checks the document against the OpenAPI schema and dereferences it;
    // `external: false` keeps it from opening any file or URL.
    api = (await SwaggerParser.validate(structuredClone(document) as never, parser)) as OpenAPIV3.Document;
  } catch (error) {
    const unresolved = refProblem(error);
    if (unresolved) return unresolved;
    // Invalid for a strict validator, as many published documents are: each problem is a warning,
    // and the document is read as it is when its $refs resolve.
    warnings.push(...validationWarnings(error));
    try {
      api = (await SwaggerParser.dereference(
        structuredClone(document) as never,
        parser,
      )) as OpenAPIV3.Document;
    } catch (again) {
      return (
        refProblem(again) ??
        problem("invalid_document", `The document cannot be read as OpenAPI: ${firstLine(again)}`)
      );
    }
  }
  return { ok: true, value: { document, api, sourceVersion, warnings } };
}

function firstLine(error: unknown): string {
  return (
    String((error as Error)?.message ?? error)
      .split("\n")
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 240) ?? "unknown error"
  );
}

/** A $ref that points at nothing (the parser's own error types, not any message naming `$ref`). */
function refProblem(
  error: unknown,
): { ok: false; problem: { code: "unresolvable_ref"; message: string } } | null {
  const name = (error as Error)?.name;
  if (name !== "MissingPointerError" && name !== "ResolverError") return null;
  return problem("unresolvable_ref", `A $ref points at nothing in the document: ${firstLine(error)}`) as {
    ok: false;
    problem: { code: "unresolvable_ref"; message: string };
  };
}

/** The validator's findings, one line each (`#/paths/~1pets/get/parameters/0 must NOT have additional properties`). */
function validationWarnings(error: unknown): string[] {
  const details = (error as { details?: Array<{ instancePath?: string; message?: string }> }).details;
  const lines = Array.isArray(details)
    ? details.map((d) => `#${d.instancePath || "/"} ${d.message ?? "is invalid"}`)
    : String((error as Error)?.message ?? error)
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !/^Swagger schema validation failed/.test(l));
  return [...new Set(lines.map((l) => l.slice(0, 240)))].slice(0, 20);
}
