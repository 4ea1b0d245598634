// `npm run bench` (last part): the corpus of real OpenAPI documents (issue 20), each served by
// Prism: import, search → listing → row → detail through a real MCP client, and every write form
// submitted with plausible values from its schema, before and after a grant. Prints the
// per-document table and the totals against the targets. `--only <n,m>` runs some documents.
import { randomBytes } from "node:crypto";
import {
  corpusEntries,
  corpusTable,
  type DocumentResult,
  runCorpusDocument,
  startTokenServer,
  totals,
} from "../test/connectors/openapi/corpus/corpus-run";
import { createMcpWorld } from "../test/mcp/mcp-world";

process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
process.env.SIGNPOST_AGENT_RATE_LIMIT ??= "0";

async function main() {
  const only = process.argv.indexOf("--only");
  const picked = only >= 0 ? new Set((process.argv[only + 1] ?? "").split(",").map(Number)) : null;
  const w = await createMcpWorld("sqlite");
  const tokens = await startTokenServer();
  const agent = await w.connect(w.keys.sam, { faces: "browse,actions" });
  const results: DocumentResult[] = [];
  const started = Date.now();
  for (const [i, entry] of corpusEntries().entries()) {
    if (picked && !picked.has(i + 1)) continue;
    const t = Date.now();
    const r = await runCorpusDocument(w, entry, i, {
      browse: true,
      formsOverMcp: false,
      tokenUrl: tokens.url,
      agent,
      removeAfter: true,
    });
    results.push(r);
    console.error(
      `[corpus] ${i + 1} ${entry.id}: ${r.imported ? "imported" : `refused (${r.refusal ?? r.crashed})`}, usable ${r.usable ?? "—"}${r.unusableWhy ? ` (${r.unusableWhy})` : ""}, forms ${r.formResults.filter((f) => f.accepted).length}/${r.forms} in ${((Date.now() - t) / 1000).toFixed(0)} s`,
    );
    if (r.crashed) console.error(`    crashed: ${r.crashed}`);
    for (const f of r.formResults.filter((x) => !x.accepted).slice(0, 3))
      console.error(`    ${f.uri}: ${f.problem}`);
  }
  const sum = totals(results);
  console.log("\n## Real OpenAPI documents (the corpus of issue 20, served by Prism)\n");
  console.log(corpusTable(results));
  const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "—");
  console.log(
    `\nImported ${sum.imported}/${sum.documents} (${pct(sum.imported, sum.documents)}; target ≥ 95%, ${sum.crashed} crashed) · usable ${sum.usable}/${sum.judged} (${pct(sum.usable, sum.judged)}; target ≥ 90%) · forms accepted ${sum.accepted}/${sum.forms} (${pct(sum.accepted, sum.forms)}; target ≥ 98%) · writes waiting for a person ${sum.waiting}/${sum.accepted} · writes that reached a mock unapproved: ${sum.unapprovedWrites} · pages showing a secret: ${sum.secretLeaks} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  await tokens.close();
  await w.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
