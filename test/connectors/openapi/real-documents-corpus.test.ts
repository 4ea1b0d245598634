import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadOpenApiOffThread } from "@/server/connectors/openapi/load-openapi-off-thread";
import { loadPrism } from "../../helpers/prism-server";
import { createMcpWorld, type McpWorld } from "../../mcp/mcp-world";
import {
  type CorpusEntry,
  corpusEntries,
  corpusTable,
  type DocumentResult,
  runCorpusDocument,
  startTokenServer,
  type TokenServer,
  totals,
} from "./corpus/corpus-run";

/**
 * Issue 20's corpus of real public documents (APIs.guru's directory, drawn by a fixed seed in
 * scripts/pick-openapi-corpus.ts, none of the systems the issue was found with), each served by
 * Prism started here: imported as an admin would, then used by an agent through a real MCP
 * client — search a listing by its noun, open it, follow a row to its detail page, submit every
 * write form with plausible values from its schema before and after a grant. CI runs a stable
 * subset (below); `npm run bench` runs the whole corpus and prints the table.
 */

/**
 * The subset CI runs: in the draw's order, documents of at most 130 operations, the first that
 * brings a version (3.1, 3.0, first published as Swagger 2.0) or a kind of auth the subset does
 * not have yet; at most four.
 */
function ciSubset(all: CorpusEntry[]): Array<{ entry: CorpusEntry; index: number }> {
  const kinds = new Set<string>();
  const out: Array<{ entry: CorpusEntry; index: number }> = [];
  all.forEach((entry, index) => {
    if (entry.operations > 130 || out.length >= 4) return;
    const mine = [entry.version.slice(0, 3), entry.origin, ...entry.auth];
    if (mine.some((k) => !kinds.has(k))) {
      for (const k of mine) kinds.add(k);
      out.push({ entry, index });
    }
  });
  return out;
}

const EMPTY_DOCUMENT = JSON.stringify({ openapi: "3.0.3", info: { title: "warm", version: "1" }, paths: {} });
/** Write forms submitted per document in CI (a sample across it); the bench submits all. */
const FORMS_PER_DOCUMENT = 12;

let w: McpWorld;
let tokens: TokenServer;
let agent: Client;
const results: DocumentResult[] = [];

beforeAll(async () => {
  // Prism's packages and the import's reading thread load while the world starts.
  const warming = Promise.all([loadPrism(), loadOpenApiOffThread(EMPTY_DOCUMENT)]);
  w = await createMcpWorld("sqlite");
  await warming;
  tokens = await startTokenServer();
  agent = await w.connect(w.keys.sam, { faces: "browse,actions" });
}, 60_000);

afterAll(async () => {
  if (results.length)
    console.log(
      `\n${corpusTable(results)}\n\n${results.map((r) => `${r.entry.id}: ${JSON.stringify(r.ms)}`).join("\n")}\n`,
    );
  await tokens?.close();
  await w?.close();
});

describe("real documents work", () => {
  const subset = ciSubset(corpusEntries());

  test("the CI subset is varied: OpenAPI 3.0 and a Swagger 2.0 origin, at least two kinds of auth", () => {
    expect(subset.length).toBeGreaterThanOrEqual(3);
    const versions = new Set(
      subset.map(({ entry }) => (entry.origin === "swagger@2.0" ? "2.0" : entry.version.slice(0, 3))),
    );
    expect(versions.size).toBeGreaterThanOrEqual(2);
    expect(new Set(subset.flatMap(({ entry }) => entry.auth)).size).toBeGreaterThanOrEqual(2);
  });

  test.each(subset.map((s) => [s.entry.id, s] as const))(
    "%s: imported, reachable from search to a detail page, every form waits for a grant and then a person, nothing sent unapproved, no secret shown",
    async (_id, { entry, index }) => {
      const r = await runCorpusDocument(w, entry, index, {
        browse: true,
        formsOverMcp: true,
        formLimit: FORMS_PER_DOCUMENT,
        tokenUrl: tokens.url,
        agent,
      });
      results.push(r);
      expect(r.crashed).toBeUndefined();
      if (!r.imported) {
        // Refused: one line that says what is wrong.
        expect(r.refusal).toMatch(/^[^\n]{10,400}$/);
        return;
      }
      if (r.usable !== undefined) expect(r.usable, r.unusableWhy).toBe(true);
      const forms = r.formResults;
      if (forms.length) expect(forms[0]?.denied, "the first write is refused before any grant").toBe(true);
      const accepted = forms.filter((f) => f.accepted);
      expect(
        accepted.length,
        JSON.stringify(forms.filter((f) => !f.accepted).slice(0, 3)),
      ).toBeGreaterThanOrEqual(Math.ceil(forms.length * 0.98));
      expect(accepted.every((f) => f.waiting)).toBe(true);
      expect(r.unapprovedWrites).toBe(0);
      expect(r.secretLeaks).toBe(0);
    },
    300_000,
  );

  // The import rate is the whole corpus's (the bench); four documents are too few to weigh it.
  test("over the subset: no crash, the usable and form targets hold, every write waits, nothing leaks", () => {
    const sum = totals(results);
    expect(sum.crashed).toBe(0);
    if (sum.judged) expect(sum.usable / sum.judged).toBeGreaterThanOrEqual(0.9);
    expect(sum.accepted / Math.max(1, sum.forms)).toBeGreaterThanOrEqual(0.98);
    expect(sum.waiting).toBe(sum.accepted);
    expect(sum.unapprovedWrites).toBe(0);
    expect(sum.secretLeaks).toBe(0);
  });
});
