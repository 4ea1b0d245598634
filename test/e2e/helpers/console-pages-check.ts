import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { screenshot } from "./chromium";
import type { Person } from "./console-page";
import { connectAgent } from "./mcp-agent";
import {
  type AxeFinding,
  seriousAxeViolations,
  settled,
  sidewaysOverflow,
  VIEWPORTS,
  type ViewportName,
} from "./page-checks";
import { type SignpostApp, startSignpostApp } from "./signpost-app";

// The page checks behind test/e2e/console-pages-*.test.ts: every console page, for every role, at
// a desk and on a phone, in real Chromium. The roles are split over several files so the two test
// workers share the work; each file starts one app (the console's production build is made once
// per checkout, scripts/next-build.ts) and checks its roles' pages on it.

export type PageCheck = {
  role: string;
  viewport: ViewportName;
  path: string;
  status: number | null;
  title: string;
  scrollWidth: number;
  innerWidth: number;
  /** Empty for a light check (axe not run). */
  axe: AxeFinding[];
  light: boolean;
};

export type PagesWorld = {
  app: SignpostApp;
  /** One action waiting for Alice: the action and confirm pages have something real to show. */
  actionId: string;
  /** People signed in during the file: closed after it. */
  people: Person[];
  /** A path as a screenshot name (the action id replaced by `id`). */
  slug(path: string): string;
  /**
   * Checks every page at both sizes and asserts at the end, so one run names every failure.
   * `light`: the phone only, without axe or a screenshot, for a role's view of a page whose
   * components another role's full check already ran axe on: what differs by role is content
   * (a column, a button), and on a phone that shows as sideways scrolling, which is still checked.
   */
  checkAll(
    person: Person,
    role: string,
    pages: { path: string; status: number }[],
    options?: { light?: boolean },
  ): Promise<void>;
};

/**
 * Registers the file's beforeAll/afterAll: one app with one action waiting for Alice, and the
 * report lines of every page checked. Read the world inside tests (it is filled in beforeAll).
 */
export function usePagesWorld(): PagesWorld {
  const results: PageCheck[] = [];
  const world = {
    actionId: "",
    people: [] as Person[],
    slug: (path: string) =>
      path === "/" ? "overview" : path.replace(/^\//, "").replaceAll("/", "-").replace(world.actionId, "id"),
    checkAll: (
      person: Person,
      role: string,
      pages: { path: string; status: number }[],
      options: { light?: boolean } = {},
    ) => checkAll(world as PagesWorld, results, person, role, pages, options.light ?? false),
  } as PagesWorld;

  beforeAll(async () => {
    world.app = await startSignpostApp();
    const key = world.app.demo.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
    const agent = await connectAgent(world.app.url, key);
    try {
      const started = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      world.actionId = String(started.structured.action_id);
      expect(world.actionId).toMatch(/\S/);
    } finally {
      await agent.close();
    }
  }, 360_000);
  afterAll(async () => {
    await Promise.allSettled(world.people.map((p) => p.close()));
    await world.app?.stop();
    // The numbers behind the report: one line per page and size.
    for (const r of results)
      console.log(
        `[pages] ${r.role.padEnd(7)} ${r.viewport.padEnd(7)} ${String(r.status).padEnd(4)} ${r.path.padEnd(36)} width ${r.scrollWidth}/${r.innerWidth} axe ${r.light ? "-" : r.axe.map((a) => `${a.id}×${a.nodes}`).join(",") || "0"} · ${r.title}`,
      );
  }, 60_000);
  return world;
}

async function check(
  world: PagesWorld,
  page: Page,
  role: string,
  viewport: ViewportName,
  path: string,
  light: boolean,
): Promise<PageCheck> {
  await page.setViewportSize(VIEWPORTS[viewport]);
  const response = await page.goto(`${world.app.url}${path}`);
  await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
  await settled(page);
  const { scrollWidth, innerWidth } = await sidewaysOverflow(page);
  // axe at both sizes: the phone has its own top bar, menu button and tables shown as cards.
  const axe = light ? [] : await seriousAxeViolations(page);
  if (!light) await screenshot(page, `${role}-${world.slug(path)}-${viewport}`);
  return {
    role,
    viewport,
    path,
    status: response?.status() ?? null,
    title: await page.title(),
    scrollWidth,
    innerWidth,
    axe,
    light,
  };
}

async function checkAll(
  world: PagesWorld,
  results: PageCheck[],
  person: Person,
  role: string,
  pages: { path: string; status: number }[],
  light: boolean,
): Promise<void> {
  const mine: PageCheck[] = [];
  for (const viewport of light ? (["phone"] as const) : (["desktop", "phone"] as const))
    for (const { path } of pages) {
      const result = await check(world, person.page, role, viewport, path, light);
      results.push(result);
      mine.push(result);
    }
  const wide = mine.filter((r) => r.scrollWidth > r.innerWidth);
  expect(
    wide.map((r) => `${r.viewport} ${r.path}: ${r.scrollWidth} > ${r.innerWidth}`),
    "pages that scroll sideways",
  ).toEqual([]);
  const failing = mine.filter((r) => r.axe.length > 0);
  expect(
    failing.map((r) => `${r.viewport} ${r.path}: ${JSON.stringify(r.axe)}`),
    "serious or critical axe violations",
  ).toEqual([]);
  for (const { path, status } of pages)
    expect(mine.find((r) => r.path === path)?.status, `HTTP status of ${path}`).toBe(status);
  // Each page names itself in the tab (and the browser's history), not just "Signpost".
  const titles = new Map<string, string>();
  for (const r of mine) titles.set(r.path, r.title);
  for (const [path, title] of titles) expect(title, `title of ${path}`).toMatch(/ · Signpost$/);
  expect(new Set(titles.values()).size, "distinct titles").toBe(titles.size);
}
