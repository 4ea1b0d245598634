import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * Every command the docs show names something that exists: an `npm run` script of package.json,
 * a subcommand of `npx signpost` (the launcher's own and scripts/cli.ts's), and the repository
 * files a command runs or reads. Read from the text, nothing run: a renamed script or command,
 * or a moved file, fails here instead of on a reader's terminal. (Whether each command works is
 * the job of the tests and the bench that run them: test/start/, test/e2e/, `npm run bench`.)
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");

const DOCS = ["README.md", ...readdirSync(join(root, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);

/** The shell commands of a document: its fenced sh/bash/shell blocks, continuation lines joined. */
function shellCommands(text: string): string[] {
  const blocks = [...text.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n/g, " ")
      .split("\n")
      .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
      .filter(Boolean),
  );
}

/** Commands written inline (`` `npx signpost serve` ``, `` `npx tsx scripts/bench.ts` ``). */
function inlineCommands(text: string): string[] {
  return [...text.matchAll(/`((?:npx|npm|node) [^`\n]+)`/g)].map((m) => m[1] ?? "");
}

/** `npm run X` anywhere in a document (fenced or inline): the script names. */
function npmRuns(text: string): string[] {
  return [...text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)].map((m) => m[1] ?? "");
}

/** `npx signpost X`, `signpost X` at a command's start, `node bin/signpost.mjs X`: the subcommands. */
function signpostCommands(commands: string[]): string[] {
  return commands.flatMap((c) =>
    [...c.matchAll(/(?:^|[\s;&|(])(?:npx signpost|node bin\/signpost\.mjs|signpost)\s+([a-z-][\w-]*)/g)].map(
      (m) => m[1] ?? "",
    ),
  );
}

/**
 * Repository files a command names (`scripts/agent-play.ts`, `.ci/run`). A connector's own
 * files (`connectors/crm/dev-system.ts`) are those `new-connector` writes: the template's. Files
 * made at run time (`data/…`) and a reader's own (`./billing.yaml`) are not the repository's.
 */
function namedFiles(commands: string[]): string[] {
  return commands.flatMap((c) =>
    [
      ...c.matchAll(
        /(?:^|[\s"'=(])((?:\.\/)?(?:\.ci|scripts|bin|server|mcp|app|test|connectors|docs)\/[\w./-]*[\w-])/g,
      ),
    ]
      .map((m) => (m[1] ?? "").replace(/^\.\//, ""))
      .map((p) => p.replace(/^connectors\/[\w-]+(\/|$)/, "scripts/connector-template$1")),
  );
}

const scripts = Object.keys(
  (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts,
);
const subcommands = [
  // scripts/cli.ts's `runCommand` switch, and what bin/signpost.mjs runs itself.
  ...[...read("scripts/cli.ts").matchAll(/^\s+case "([a-z-]+)":/gm)].map((m) => m[1] ?? ""),
  ...[...read("bin/signpost.mjs").matchAll(/command === "([a-z-]+)"/g)].map((m) => m[1] ?? ""),
];

describe("every command in the docs names what exists", () => {
  const docs = DOCS.map((file) => ({
    file,
    text: read(file),
    commands: [...shellCommands(read(file)), ...inlineCommands(read(file))],
  }));

  it("the docs show commands (the extraction finds them)", () => {
    expect(docs.flatMap((d) => d.commands).length).toBeGreaterThan(20);
    expect(subcommands).toEqual(expect.arrayContaining(["serve", "mcp", "seed", "connect", "new-connector"]));
  });

  it("each `npm run X` is a script of package.json", () => {
    const missing = docs.flatMap(({ file, text }) =>
      npmRuns(text)
        .filter((s) => !scripts.includes(s))
        .map((s) => `${file}: npm run ${s}`),
    );
    expect(missing).toEqual([]);
  });

  it("each `npx signpost X` is a command of the CLI", () => {
    const missing = docs.flatMap(({ file, commands }) =>
      signpostCommands(commands)
        .filter((s) => !subcommands.includes(s))
        .map((s) => `${file}: signpost ${s}`),
    );
    expect(missing).toEqual([]);
  });

  it("each repository file a command names exists", () => {
    const missing = docs.flatMap(({ file, commands }) =>
      namedFiles(commands)
        .filter((p) => !existsSync(join(root, p)))
        .map((p) => `${file}: ${p}`),
    );
    expect(missing).toEqual([]);
  });
});
