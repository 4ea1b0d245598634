// `npx signpost connect openapi <file-or-url> --id <id> --base-url <url>`: imports a system from
// its OpenAPI document into a tenant, through the same gateway function as the console's "Add a
// system" (audited, face `cli`). A running server serves it on its next call. Secret values are
// never printed; `--secret name=env:VAR` reads one from the environment instead of the command line.
import { parseArgs } from "node:util";
import { readOpenApiSource } from "@/server/connectors/openapi/read-openapi-source";
import type { Db } from "@/server/db/client";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import type { AdminActor } from "@/server/gateway/console/record-console-audit";

export const CONNECT_HELP = `  connect openapi <file-or-url> --id <id> --base-url <url> [--tenant <id>]
              [--read-roles admin,support] [--secret <scheme>=<value>]... [--title <title>]
              [--idempotency-header <name>] [--read-operation <operationId>]...
              [--setting <name>=<value>]... [--yes]
                                       import a system from its OpenAPI (or Swagger 2.0)
                                       document; a re-import prints what changes and needs --yes`;

interface ConnectDeps {
  withDb<T>(run: (db: Db) => Promise<T>): Promise<T>;
  operator(tenantId: string): AdminActor;
  say(line: string): void;
  fail(message: string): never;
}

function secretsOf(pairs: string[], fail: ConnectDeps["fail"], flag = "--secret"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq < 1) fail(`${flag} takes <name>=<value> (or <name>=env:VARIABLE)`);
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const value = raw.startsWith("env:") ? process.env[raw.slice(4)] : raw;
    if (!value) fail(`${flag} ${name}: no value${raw.startsWith("env:") ? ` in ${raw.slice(4)}` : ""}`);
    out[name] = value;
  }
  return out;
}

function selfAddress() {
  const port = Number(process.env.PORT ?? 3000);
  const origins = [
    process.env.SIGNPOST_PUBLIC_URL,
    `http://localhost:${port}`,
    `http://127.0.0.1:${port}`,
  ].filter((o): o is string => !!o);
  return { origins, ports: [port] };
}

export async function connectCommand(args: string[], deps: ConnectDeps): Promise<void> {
  const [kind, ...rest] = args;
  if (kind !== "openapi") deps.fail("connect takes one kind of system: `connect openapi <file-or-url> …`");
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      id: { type: "string" },
      "base-url": { type: "string" },
      tenant: { type: "string" },
      "read-roles": { type: "string", default: "admin,support" },
      secret: { type: "string", multiple: true, default: [] },
      title: { type: "string" },
      "idempotency-header": { type: "string" },
      "read-operation": { type: "string", multiple: true, default: [] },
      setting: { type: "string", multiple: true, default: [] },
      yes: { type: "boolean", default: false },
    },
    strict: true,
  });
  const source = positionals[0];
  if (!source || positionals.length > 1)
    deps.fail("connect openapi takes one document: a file or an http(s) URL");
  if (!values.id) deps.fail("--id <id> is required (it becomes the URI scheme)");
  if (!values["base-url"]) deps.fail("--base-url <url> is required (where the API answers)");
  const secrets = secretsOf(values.secret ?? [], deps.fail);
  // Headers the API requires on every request (an integration code): connector settings, not secrets.
  const settings = secretsOf(values.setting ?? [], deps.fail, "--setting");
  const read = await readOpenApiSource(source);
  if (!read.ok) deps.fail(read.problem.message);
  await deps.withDb(async (db) => {
    let tenantId = values.tenant;
    if (!tenantId) {
      const tenants = await db.tenant.findMany({ select: { id: true }, take: 2 });
      if (tenants.length !== 1) deps.fail("--tenant <id> is required (there is not exactly one tenant)");
      tenantId = tenants[0]?.id as string;
    } else if (!(await db.tenant.findUnique({ where: { id: tenantId } })))
      deps.fail(`no tenant "${tenantId}"`);
    const request = {
      text: read.value.text,
      id: values.id as string,
      baseUrl: values["base-url"] as string,
      title: values.title,
      readRoles: (values["read-roles"] ?? "").split(","),
      idempotencyHeader: values["idempotency-header"],
      readOperations: values["read-operation"] ?? [],
      secrets,
      settings,
      self: selfAddress(),
    };
    const actor = deps.operator(tenantId);
    const preview = await importOpenApiConnector(db, actor, request, { apply: false });
    if (!preview.ok) deps.fail(preview.message);
    const { diff, report } = preview.value;
    if (diff) {
      deps.say(`Re-import of ${preview.value.connector} (${preview.value.title}):`);
      for (const line of diff.added) deps.say(`  + ${line}`);
      for (const line of diff.removed) deps.say(`  - ${line}`);
      for (const line of diff.changed) deps.say(`  ~ ${line}`);
      for (const line of diff.security) deps.say(`  ~ ${line}`);
      deps.say(`  ${diff.unchanged} operation(s) unchanged`);
      for (const c of preview.value.secretChanges)
        deps.say(
          `  secret ${c.secret}: ${c.change}${preview.value.secretsToClear.includes(c.secret) ? " (cleared by this import)" : ""}`,
        );
      if (!values.yes) {
        deps.say("Nothing was changed. Run again with --yes to apply.");
        return;
      }
    }
    const done = await importOpenApiConnector(db, actor, request, { apply: true });
    if (!done.ok) deps.fail(done.message);
    const v = done.value;
    deps.say(
      `Imported ${v.connector}:// (${v.title}, OpenAPI ${v.sourceVersion}) into ${tenantId}: ${report.listings} listings, ${report.details} detail pages, ${report.forms} forms (writes wait for a grant and a person's approval).`,
    );
    if (v.report.skippedCount) {
      deps.say(`Skipped ${v.report.skippedCount} operation(s):`);
      for (const s of v.report.skipped.slice(0, 20)) deps.say(`  ${s.method} ${s.path}: ${s.reason}`);
    }
    if (v.warnings.length) {
      deps.say(
        `The document is not valid OpenAPI for a strict validator; imported as a mock server reads it (${v.warnings.length} warning(s)):`,
      );
      for (const w of v.warnings.slice(0, 10)) deps.say(`  ${w}`);
    }
    const suggested = v.report.suggestedReads.filter((r) => !r.marked);
    if (suggested.length)
      deps.say(
        `These POSTs look like reads (not assumed: each stays a write behind a grant and an approval until marked with --read-operation <id>): ${suggested
          .slice(0, 10)
          .map((r) => `${r.id} (POST ${r.path})`)
          .join(", ")}${suggested.length > 10 ? ` and ${suggested.length - 10} more` : ""}.`,
      );
    if (v.report.reads.length) deps.say(`Marked as reads (no approval): ${v.report.reads.join(", ")}.`);
    for (const s of v.report.unsupportedSchemes)
      deps.say(`Security scheme ${s.name} is not supported: ${s.why}.`);
    if (v.report.secrets.length)
      deps.say(
        `Secrets: ${v.report.secrets.map((s) => `${s.name} (${v.secretsSet.includes(s.name) ? "set" : "not set"}: ${s.description})`).join("; ")}.`,
      );
    if (v.report.settings.length)
      deps.say(
        `Settings (headers sent with every request; --setting <name>=<value> or the Connectors page): ${v.report.settings
          .map((s) => `${s.name} (${v.settingsSet.includes(s.name) ? "set" : "not set"}: ${s.header})`)
          .join("; ")}.`,
      );
    if (v.secretsCleared.length)
      deps.say(`Cleared (where they would be sent changed): ${v.secretsCleared.join(", ")}.`);
    if (v.startPages.length) deps.say(`Start at: ${v.startPages.slice(0, 5).join(", ")}`);
  });
}
