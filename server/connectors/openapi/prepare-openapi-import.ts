import type { Db } from "../../db/client";
import { connectors, registrationProblem } from "../connector-registry";
import { RESERVED_SCHEMES } from "../sdk/define-connector";
import { SCHEME_PATTERN } from "../sdk/parse-browse-uri";
import { tenantConnectors } from "../tenant-connectors";
import { baseUrlProblem, type SelfAddress } from "./base-url-problem";
import { diffOperations, type OperationsDiff } from "./diff-operations";
import {
  generateOpenApiConnector,
  type ImportReport,
  type OpenApiConnector,
  type Role,
} from "./generate-openapi-connector";
import { type ImportBudget, loadOpenApiOffThread } from "./load-openapi-off-thread";
import { type OpenApiResult, problem } from "./openapi-import-problem";
import { secretBindingChanges } from "./secret-binding-changes";
import type { SecretBindingChange } from "./secret-bindings";
import { secretNameOf } from "./security-schemes";
import { settingValueProblem } from "./setting-value-problem";

export interface ImportRequest {
  tenantId: string;
  /** The document's text (JSON or YAML). */
  text: string;
  id: string;
  baseUrl: string;
  title?: string;
  readRoles: string[];
  idempotencyHeader?: string;
  /** Secret values by the scheme's name in the document, or by its vault name. */
  secrets: Record<string, string>;
  /** operationIds of POSTs an admin marks as reads (pages, no approval); see the report's suggestions. */
  readOperations?: string[];
  /** Values of the connector's settings (headers every request carries), by setting or header name. */
  settings?: Record<string, string>;
  self: SelfAddress;
  /** The import's time and memory budget (the defaults of OPENAPI_LIMITS unless a test narrows them). */
  budget?: ImportBudget;
}

/** An import checked and generated, not yet stored: what it will add, and what changes on a re-import. */
export interface PreparedImport {
  tenantId: string;
  id: string;
  title: string;
  baseUrl: string;
  readRoles: Role[];
  idempotencyHeader?: string;
  /** The OpenAPI 3 JSON that is stored. */
  document: string;
  sourceVersion: string;
  /** What a strict validator found wrong with the document (imported all the same). */
  warnings: string[];
  /** The POSTs marked as reads. */
  readOperations: string[];
  connector: OpenApiConnector;
  report: ImportReport;
  /** Null on a first import. */
  diff: OperationsDiff | null;
  /** Secrets to store, by vault name (values never leave the server). */
  secrets: Record<string, string>;
  /** Connector settings to store, by setting name (non-secret; see the report's settings). */
  settings: Record<string, string>;
  /** Secrets whose destinations or way of sending this import changes (null diff: none before). */
  secretChanges: SecretBindingChange[];
  /** Stored secrets the import clears (their binding changed, or their scheme is gone). */
  secretsToClear: string[];
}

const ROLES: Role[] = ["admin", "support", "member"];
const HEADER = /^[A-Za-z0-9-]{1,60}$/;

/**
 * Checks an import from end to end without storing anything: the id (a free URI scheme of the
 * tenant's, not a built-in one), the read roles, the base URL (http(s), not Signpost itself), the
 * document (size, syntax, version, `$ref`s, operationIds, schema), the generated connector
 * against the tenant's others, and each secret's name against the document's schemes. A
 * re-import of an id the tenant has comes with what it changes.
 */
export async function prepareOpenApiImport(
  db: Db,
  request: ImportRequest,
): Promise<OpenApiResult<PreparedImport>> {
  const { tenantId, id } = request;
  if (!SCHEME_PATTERN.test(id))
    return problem(
      "invalid_id",
      `--id must be 2-30 lowercase letters or digits, starting with a letter (it becomes the URI scheme ${id.slice(0, 30)}://)`,
    );
  if (RESERVED_SCHEMES.includes(id) || connectors().some((c) => c.id === id || c.scheme === id))
    return problem(
      "invalid_id",
      `${id} is a scheme Signpost or an installed connector uses; pick another --id`,
    );
  const readRoles = [...new Set(request.readRoles.map((r) => r.trim()).filter(Boolean))];
  const badRole = readRoles.find((r) => !ROLES.includes(r as Role));
  if (badRole !== undefined || readRoles.length === 0)
    return problem(
      "invalid_roles",
      `--read-roles takes admin, support and/or member${badRole ? `, not ${JSON.stringify(badRole.slice(0, 20))}` : ""}`,
    );
  if (request.idempotencyHeader && !HEADER.test(request.idempotencyHeader))
    return problem("invalid_id", "the idempotency header must be a header name (letters, digits, -)");
  const urlProblem = baseUrlProblem(request.baseUrl, request.self);
  if (urlProblem) return problem("bad_base_url", urlProblem);
  const loaded = await loadOpenApiOffThread(request.text, request.budget);
  if (!loaded.ok) return loaded;
  const settings = {
    id,
    title: request.title,
    baseUrl: request.baseUrl.replace(/\/+$/, ""),
    readRoles: readRoles as Role[],
    idempotencyHeader: request.idempotencyHeader,
    readOperations: [...new Set(request.readOperations ?? [])],
  };
  let connector: OpenApiConnector;
  try {
    connector = generateOpenApiConnector(loaded.value, settings);
  } catch (error) {
    // The SDK refused what was generated: a bug of the generator's, said as such, nothing stored.
    return problem(
      "invalid_document",
      `Signpost could not make a connector of it: ${(error as Error).message.slice(0, 300)}`,
    );
  }
  const report = connector.openapi.report;
  const notPost = settings.readOperations.find((r) => !report.reads.includes(r));
  if (notPost !== undefined)
    return problem(
      "invalid_id",
      `--read-operation ${notPost.slice(0, 60)}: the document has no POST form by that operationId (suggested reads: ${
        report.suggestedReads
          .map((r) => r.id)
          .slice(0, 8)
          .join(", ") || "none"
      })`,
    );
  if (report.listings + report.details + report.forms === 0) {
    // No page and no form: an import that "succeeds" with nothing to use is refused, with why.
    const reasons = [...new Set(report.skipped.map((s) => s.reason))];
    return problem(
      "nothing_usable",
      `None of its ${report.operations} operations can become a page or a form${reasons.length ? `: ${reasons.slice(0, 2).join("; ")}${reasons.length > 2 ? `; and ${reasons.length - 2} other reason(s)` : ""}` : ""}.`,
    );
  }
  const others = (await tenantConnectors(db, tenantId)).filter((c) => c.id !== id);
  const clash = registrationProblem(connector, others);
  if (clash) return problem("invalid_id", clash);
  const secrets: Record<string, string> = {};
  for (const [given, value] of Object.entries(request.secrets)) {
    // The scheme's name in the document and its vault name normalize to the same.
    const name = secretNameOf(given);
    if (!name || !connector.openapi.report.secrets.some((s) => s.name === name))
      return problem(
        "unknown_secret",
        `--secret ${given.slice(0, 40)}: the document has no usable security scheme by that name (${connector.openapi.report.secrets.map((s) => s.name).join(", ") || "it declares none"})`,
      );
    if (!value || value.length > 4096)
      return problem("unknown_secret", `--secret ${given.slice(0, 40)} needs a value of 1-4096 characters`);
    secrets[name] = value;
  }
  const values: Record<string, string> = {};
  for (const [given, value] of Object.entries(request.settings ?? {})) {
    const setting = report.settings.find(
      (s) => s.name === given || s.header.toLowerCase() === given.toLowerCase(),
    );
    if (!setting)
      return problem(
        "unknown_setting",
        `--setting ${given.slice(0, 40)}: the document asks for no header by that name (${report.settings.map((s) => s.name).join(", ") || "it asks for none"})`,
      );
    const problemOf = settingValueProblem(value);
    if (problemOf) return problem("unknown_setting", `--setting ${setting.name} ${problemOf}`);
    values[setting.name] = value;
  }
  const existing = await db.importedConnector.findFirst({ where: { tenantId, connector: id } });
  const document = JSON.stringify(loaded.value.document);
  const bindings = await secretBindingChanges(db, tenantId, id, {
    document: loaded.value.document,
    baseUrl: settings.baseUrl,
  });
  return {
    ok: true,
    value: {
      tenantId,
      id,
      title: connector.title,
      baseUrl: settings.baseUrl,
      readRoles: settings.readRoles,
      idempotencyHeader: settings.idempotencyHeader,
      document,
      sourceVersion: loaded.value.sourceVersion,
      warnings: loaded.value.warnings,
      readOperations: settings.readOperations,
      connector,
      report: connector.openapi.report,
      diff: existing
        ? diffOperations(JSON.parse(existing.document) as Record<string, unknown>, loaded.value.document)
        : null,
      secrets,
      settings: values,
      secretChanges: bindings.changes,
      secretsToClear: bindings.clears,
    },
  };
}
