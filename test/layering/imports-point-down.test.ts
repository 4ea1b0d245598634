import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every import of a file, as a repository path (`server/gateway/vault`) or a package name. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)["']([^"']+)["']/gm)].map(
    ([, spec = ""]) => {
      if (spec.startsWith("@/")) return spec.slice(2);
      if (spec.startsWith(".")) return relative(root, normalize(join(root, dirname(file), spec)));
      return spec;
    },
  );
}

const files = [...sources("server"), ...sources("mcp"), ...sources("app"), ...sources("components")];

/** The files breaking a rule: `file → import` lines, empty when it holds. */
function violations(from: (file: string) => boolean, forbidden: (target: string, file: string) => boolean) {
  return files.filter(from).flatMap((file) =>
    importsOf(file)
      .filter((t) => forbidden(t, file))
      .map((t) => `${file} → ${t}`),
  );
}

const under = (dir: string) => (path: string) => path === dir || path.startsWith(`${dir}/`);
/** A connector's own folder (not the SDK or the OpenAPI generator, which every connector shares). */
const connectorFolder = (path: string) =>
  /^server\/connectors\/[^/]+\//.test(path) && !/^server\/connectors\/(sdk|openapi)\//.test(path);

// docs/architecture.md: app → mcp → server/gateway → server/engine, server/browse → server/connectors → db.
describe("imports only point down (docs/architecture.md)", () => {
  it("connectors import nothing above them", () => {
    const above = [
      "server/browse",
      "server/engine",
      "server/gateway",
      "server/jobs",
      "server/config",
      "mcp",
      "app",
      "components",
      "scripts",
      "sdk-testing",
    ];
    expect(violations(under("server/connectors"), (t) => above.some((dir) => under(dir)(t)))).toEqual([]);
  });

  it("server/'s own root files (logger, redaction) import no layer above them", () => {
    const rootFile = (f: string) => /^server\/[^/]+\.ts$/.test(f);
    const layers = ["server/gateway", "server/engine", "server/browse", "server/jobs", "mcp", "app"];
    expect(violations(rootFile, (t) => layers.some((dir) => under(dir)(t)))).toEqual([]);
  });

  it("the SDK's public surface (signpost/sdk) is made only of files inside sdk/", () => {
    const index = "server/connectors/sdk/index.ts";
    const repoFile = (t: string) => /^(server|mcp|app|components|scripts|sdk-testing)\//.test(t);
    expect(importsOf(index).filter((t) => repoFile(t) && !under("server/connectors/sdk")(t))).toEqual([]);
  });

  it("nothing above the connectors reaches into a connector's folder: they go through the registry", () => {
    expect(
      violations(
        (f) => !under("server/connectors")(f),
        (t) => connectorFolder(t),
      ),
    ).toEqual([]);
  });

  it("the engine and browse do not import the gateway or the faces; browse does not run the engine", () => {
    const faces = (t: string) => ["server/gateway", "mcp", "app"].some((d) => under(d)(t));
    expect(violations(under("server/engine"), (t) => faces(t) || under("server/browse")(t))).toEqual([]);
    expect(violations(under("server/browse"), (t) => faces(t) || under("server/engine")(t))).toEqual([]);
  });

  it("server/ never imports Next.js, the faces, the console or the demo legacy service", () => {
    expect(
      violations(
        (f) => under("server")(f) && !under("server/legacy")(f),
        (t) =>
          t === "next" ||
          t.startsWith("next/") ||
          ["mcp", "app", "components", "server/legacy"].some((d) => under(d)(t)),
      ),
    ).toEqual([]);
  });

  // components/ is the shared UI of the console and the confirmation screen (the MCP App renders
  // the same summary as /confirm): below app/, beside mcp/, never importing either.
  it("the faces do not import the console's pages, and the UI components import no face", () => {
    expect(violations(under("mcp"), (t) => under("app")(t))).toEqual([]);
    expect(violations(under("components"), (t) => under("app")(t) || under("mcp")(t))).toEqual([]);
  });
});

/** A repository import resolved to its file (`server/gateway/vault` → `server/gateway/vault.ts`), or null. */
function fileOf(target: string): string | null {
  for (const candidate of [`${target}.ts`, `${target}.tsx`, `${target}/index.ts`, target])
    if (/\.(ts|tsx)$/.test(candidate) && existsSync(join(root, candidate))) return candidate;
  return null;
}

/** Every import cycle among `files` (type-only imports too: they tie the files as tightly), one per cycle. */
function importCycles(
  among: string[],
  importedBy: (file: string) => string[] = (f) => importsOf(f).flatMap((t) => fileOf(t) ?? []),
): string[][] {
  const edges = new Map(among.map((f) => [f, importedBy(f)]));
  // Tarjan's strongly connected components: each component of more than one file is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of edges.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const file of among) if (!index.has(file)) visit(file);
  return cycles;
}

describe("no import cycles", () => {
  it("the detector finds a loop of any length, and none in a chain", () => {
    const graph: Record<string, string[]> = { a: ["b"], b: ["c"], c: ["a", "d"], d: ["e"], e: [] };
    expect(importCycles(Object.keys(graph), (f) => graph[f] ?? [])).toEqual([["a", "b", "c"]]);
    expect(importCycles(["d", "e"], (f) => graph[f] ?? [])).toEqual([]);
  });

  it("no file of server/, mcp/, app/ or components/ imports itself back through others", () => {
    expect(importCycles(files)).toEqual([]);
  });
});
