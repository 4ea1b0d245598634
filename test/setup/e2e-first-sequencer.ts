import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The end-to-end files first, then vitest's own order. On a clean clone vitest has no durations
 * yet and runs larger files first, so the short e2e files (a 33-line file that checks every page
 * in Chromium for 80–140 s) started last: one worker ran them alone while the other sat idle.
 * Starting them first lets the many short files fill both workers at the end.
 */
export class E2eFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const e2e = (f: TestSpecification) => relative(root, f.moduleId).startsWith("test/e2e/");
    return [...sorted.filter(e2e), ...sorted.filter((f) => !e2e(f))];
  }
}
