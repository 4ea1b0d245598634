import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const runtime = new Set(Object.keys(pkg.dependencies));

/** What `npm start` and `npx signpost …` load: the app, the faces, the server, and the scripts they run. */
const ENTRY_DIRS = ["app", "components", "server", "mcp"];
const ENTRY_FILES = [
  "instrumentation.ts",
  "next.config.ts",
  "bin/signpost.mjs",
  "scripts/start.ts",
  "scripts/serve.ts",
  "scripts/cli.ts",
];
const CODE = /\.(ts|tsx|mjs|js)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && CODE.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? join(root, spec.slice(2)) : join(dirname(join(root, from)), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}.mjs`,
    `${base}.js`,
    join(base, "index.ts"),
  ])
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate);
  return null;
}

const packageOf = (spec: string) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

/** The value imports of one file (type-only imports vanish at runtime), plus require/require.resolve. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(root, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) &&
      !node.importClause?.isTypeOnly &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push(node.moduleSpecifier.text);
    else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression.getText(source);
      if (
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        callee === "require" ||
        callee === "require.resolve"
      )
        out.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Every package the product's module graph imports, with the first file that imports it. */
function packagesOfTheProduct(): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [...ENTRY_DIRS.flatMap(filesUnder), ...ENTRY_FILES];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith("node:") || isBuiltin(spec)) continue;
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const local = resolveLocal(file, spec);
        if (local && CODE.test(local)) queue.push(local);
        continue;
      }
      if (!packages.has(packageOf(spec))) packages.set(packageOf(spec), file);
    }
  }
  return packages;
}

describe("runtime code depends only on runtime dependencies", () => {
  it("no module that npm start or npx signpost loads imports a devDependency (or an undeclared package)", () => {
    const packages = packagesOfTheProduct();
    // The walk really saw the product (a broken walk would find nothing and pass).
    for (const name of ["next", "react", "zod", "@modelcontextprotocol/server", "pino", "tsx"])
      expect(packages.has(name), name).toBe(true);
    const wrong = [...packages]
      .filter(([name]) => !runtime.has(name))
      .map(
        ([name, file]) =>
          `${file} imports ${name} (${name in pkg.devDependencies ? "a devDependency" : "not declared"})`,
      );
    expect(wrong).toEqual([]);
    // A walk over every module the product loads: seconds alone, past 30 s on a loaded CI machine.
  }, 120_000);

  it("what npm start's build needs is a runtime dependency too (it builds when the sources changed)", () => {
    // The stylesheet's @import and the PostCSS plugins are loaded by `next build`.
    const css = readFileSync(join(root, "app/globals.css"), "utf8");
    const cssPackages = [...css.matchAll(/@import\s+"([^"./][^"]*)"/g)].map((m) => packageOf(m[1] as string));
    const postcss = readFileSync(join(root, "postcss.config.mjs"), "utf8");
    const plugins = [...postcss.matchAll(/"(@?[a-z0-9][\w./-]*)"\s*:/g)].map((m) =>
      packageOf(m[1] as string),
    );
    expect(cssPackages).toContain("tailwindcss");
    expect(plugins).toContain("@tailwindcss/postcss");
    // A TypeScript project: next build type-checks with these and stops without them.
    const nextBuild = ["typescript", "@types/react", "@types/node"];
    const needed = [...cssPackages, ...plugins, "postcss", ...nextBuild];
    expect(needed.filter((name) => !runtime.has(name))).toEqual([]);
  });
});
