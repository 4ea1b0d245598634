import type { OperationsDiff } from "../../connectors/openapi/diff-operations";
import type { ImportReport } from "../../connectors/openapi/generate-openapi-connector";
import { type ImportRequest, prepareOpenApiImport } from "../../connectors/openapi/prepare-openapi-import";
import { saveImportedConnector } from "../../connectors/openapi/save-imported-connector";
import type { SecretBindingChange } from "../../connectors/openapi/secret-bindings";
import type { Db } from "../../db/client";
import { redactText } from "../../redact-secrets";
import { setSecret } from "../vault";
import { type ConsoleResult, fail, ok } from "./console-result";
import { type AdminActor, recordConsoleAudit } from "./record-console-audit";

/** What an import did (or, previewed, would do): never a secret value. */
export interface ImportSummary {
  connector: string;
  title: string;
  applied: boolean;
  sourceVersion: string;
  /** What a strict validator found wrong with the document: imported all the same, shown to the admin. */
  warnings: string[];
  report: Omit<ImportReport, "skipped"> & { skipped: ImportReport["skipped"]; skippedCount: number };
  /** Null on a first import. */
  diff: OperationsDiff | null;
  secretsSet: string[];
  /** Connector settings this import sets (names; the Connectors page shows their values). */
  settingsSet: string[];
  secretsCleared: string[];
  /** Secrets whose destinations (base URL, servers, token URL) or way of sending the import changes. */
  secretChanges: SecretBindingChange[];
  /** Stored secrets the import clears (applied) or would clear (preview). */
  secretsToClear: string[];
  /** Where its pages start. */
  startPages: string[];
}

/**
 * Imports (or previews) an OpenAPI connector for the actor's tenant: the one path the CLI and
 * the console's "Add a system" share. A refused document or setting changes nothing and is on
 * record; an applied import stores the document, the base URL and the given secrets (vault,
 * write-only) in one transaction and is audited before the answer. The tenant's next call
 * serves the new connector (the per-tenant freshness check), with no restart.
 */
export async function importOpenApiConnector(
  db: Db,
  actor: AdminActor,
  request: Omit<ImportRequest, "tenantId">,
  options: { apply: boolean },
): Promise<ConsoleResult<ImportSummary>> {
  const startedAt = Date.now();
  const target = `config://${request.id.slice(0, 30)}`;
  const prepared = await prepareOpenApiImport(db, { ...request, tenantId: actor.tenantId });
  const args = {
    connector: request.id.slice(0, 30),
    // Redacted before it is cut: a cut through `user:password@` would hide the password's end from redaction.
    baseUrl: redactText(request.baseUrl).slice(0, 300),
    read_roles: request.readRoles,
    scheme_names: Object.keys(request.secrets),
  };
  if (!prepared.ok) {
    await recordConsoleAudit(db, actor, {
      operation: "connector.import_refused",
      target,
      arguments: { ...args, problem: prepared.problem.code },
      outcome: "rejected",
      message: prepared.problem.message,
      startedAt,
    });
    return fail("rejected", prepared.problem.message, { code: prepared.problem.code });
  }
  const p = prepared.value;
  const summary = (applied: boolean, secretsSet: string[], secretsCleared: string[]): ImportSummary => ({
    connector: p.id,
    title: p.title,
    applied,
    sourceVersion: p.sourceVersion,
    warnings: p.warnings,
    report: { ...p.report, skipped: p.report.skipped.slice(0, 50), skippedCount: p.report.skipped.length },
    diff: p.diff,
    secretsSet,
    settingsSet: applied ? Object.keys(p.settings).sort() : [],
    secretsCleared,
    // The preview names what the import would clear, and why (where each secret would go now).
    secretChanges: p.secretChanges,
    secretsToClear: p.secretsToClear,
    startPages: p.connector.routes
      .filter((r) => r.startPoint)
      .map((r) => r.pattern)
      .slice(0, 20),
  });
  if (!options.apply) return ok(summary(false, [], []));
  const saved = await db.$transaction(async (tx) => {
    const { secretsCleared } = await saveImportedConnector(tx, p);
    for (const [name, value] of Object.entries(p.secrets))
      await setSecret(tx, { tenantId: p.tenantId, connector: p.id, name, value, updatedById: actor.userId });
    return secretsCleared;
  });
  const secretsSet = Object.keys(p.secrets).sort();
  await recordConsoleAudit(db, actor, {
    operation: p.diff ? "connector.reimported" : "connector.imported",
    target: `config://${p.id}`,
    arguments: {
      ...args,
      scheme_names: secretsSet,
      setting_names: Object.keys(p.settings).sort(),
      listings: p.report.listings,
      details: p.report.details,
      forms: p.report.forms,
      skipped: p.report.skipped.length,
      ...(p.diff
        ? { added: p.diff.added.length, removed: p.diff.removed.length, changed: p.diff.changed.length }
        : {}),
      cleared: saved,
    },
    outcome: "applied",
    message: `${p.title}: ${p.report.listings} listings, ${p.report.details} detail pages, ${p.report.forms} forms`,
    startedAt,
  });
  return ok(summary(true, secretsSet, saved));
}
