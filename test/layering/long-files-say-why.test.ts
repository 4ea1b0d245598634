import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Past this many lines a file is split by job, or says at its top why it stays whole. */
const MAX_LINES = 400;
/** The marker (docs/architecture.md): `// stays-whole: <why>` within the first lines of the file. */
const MARKER = /^\s*(?:\/\/|\/\*+|\*)\s*stays-whole:\s*\S.{8,}/;
const HEAD_LINES = 5;

const DIRS = ["app", "components", "mcp", "server", "scripts", "sdk-testing", "test"];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** A file's line count as `wc -l` counts it, and whether its first lines state why it stays whole. */
function measure(file: string) {
  const text = readFileSync(join(root, file), "utf8");
  const lines = text.split("\n");
  const count = text.endsWith("\n") ? lines.length - 1 : lines.length;
  return { file, count, says: lines.slice(0, HEAD_LINES).some((l) => MARKER.test(l)) };
}

describe("one file, one job (docs/architecture.md)", () => {
  const files = DIRS.flatMap(sources).map(measure);

  it(`every source and test file over ${MAX_LINES} lines says at its top why it stays whole`, () => {
    const unexplained = files
      .filter((f) => f.count > MAX_LINES && !f.says)
      .map((f) => `${f.file} (${f.count})`);
    expect(unexplained).toEqual([]);
  });

  it("the marker is found where it is written, and only there", () => {
    expect(MARKER.test("// stays-whole: seed data, one table read top to bottom")).toBe(true);
    expect(MARKER.test(" * stays-whole: a table-driven test of one rule")).toBe(true);
    expect(MARKER.test("// stays-whole:")).toBe(false);
    expect(MARKER.test("// stays whole because")).toBe(false);
  });
});
