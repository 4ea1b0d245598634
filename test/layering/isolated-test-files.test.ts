import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ISOLATED_FILES } from "../../vitest.config";

/**
 * Test files share one module graph per worker unless vitest.config.ts lists them as isolated: a
 * file that changes the process's state (the environment, module mocks or spies, fake timers, the
 * working directory) would change it for every later file in its worker, and fail one of them
 * far from the cause. Read from the text: such a file must be listed.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

const CHANGES_PROCESS_STATE = [
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn|useFakeTimers)\(/,
  /\bprocess\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)/,
  /\bdelete\s+process\.env\b/,
  /\bprocess\.chdir\(/,
  /\bObject\.assign\(\s*process\.env\b/,
];

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testFiles(join(dir, e.name))
      : e.name.endsWith(".test.ts")
        ? [relative(root, join(root, dir, e.name))]
        : [],
  );
}

/** A listed glob's fixed prefix (`test/e2e/**\/*.test.ts` → `test/e2e/`), or the file itself. */
const listed = (file: string) =>
  ISOLATED_FILES.some((entry) =>
    entry.includes("*") ? file.startsWith(entry.split("*")[0] ?? "") : entry === file,
  );

describe("test files that change process state run isolated", () => {
  it("every such file is listed in vitest.config.ts's ISOLATED_FILES", () => {
    const unlisted = testFiles("test").filter(
      (f) => !listed(f) && CHANGES_PROCESS_STATE.some((p) => p.test(readFileSync(join(root, f), "utf8"))),
    );
    expect(unlisted).toEqual([]);
  });

  it("every listed file exists", () => {
    const files = new Set(testFiles("test"));
    const missing = ISOLATED_FILES.filter((e) => !e.includes("*") && !files.has(e));
    expect(missing).toEqual([]);
  });
});
