import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONSOLE_PAGES, type ConsolePageId } from "@/components/console-pages";

const consoleDir = fileURLToPath(new URL("../../app/(console)", import.meta.url));

function pages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return pages(path);
    return name === "page.tsx" ? [path] : [];
  });
}

// A page that kept its own roles, or guarded itself under another page's row, would let in
// people the nav hides it from (or the reverse): /approvals once did, for support.
describe("console pages and nav read one table", () => {
  const found = pages(consoleDir).map((file) => {
    const route = `/${relative(consoleDir, file).replace(/\/?page\.tsx$/, "")}`;
    const call = /requirePageAccess\([^,]+,\s*pageRoles\.(\w+)\)/.exec(readFileSync(file, "utf8"));
    return { route, id: call?.[1] as ConsolePageId | undefined };
  });

  it("every page guards itself with its own row of the table", () => {
    expect(found.length).toBeGreaterThanOrEqual(Object.keys(CONSOLE_PAGES).length);
    for (const { route, id } of found) {
      expect(id, `${route} calls requirePageAccess(path, pageRoles.<its row>)`).toBeDefined();
      const row = CONSOLE_PAGES[id as ConsolePageId];
      const first = `/${route.split("/")[1] ?? ""}`;
      expect(row?.path, `${route} is guarded by the row of ${row?.path}`).toBe(first);
    }
  });

  it("every row is a page that exists", () => {
    const routes = new Set(found.map((f) => `/${f.route.split("/")[1] ?? ""}`));
    for (const page of Object.values(CONSOLE_PAGES)) expect(routes, page.path).toContain(page.path);
  });
});
