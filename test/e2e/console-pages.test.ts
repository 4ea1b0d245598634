import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium, screenshot } from "./helpers/chromium";
import { type Person, signInAs } from "./helpers/console-page";
import { connectAgent } from "./helpers/mcp-agent";
import {
  type AxeFinding,
  seriousAxeViolations,
  settled,
  sidewaysOverflow,
  VIEWPORTS,
  type ViewportName,
} from "./helpers/page-checks";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

// Every console page, for every role, at a desk (1440×900) and on a phone (360×780), in real
// Chromium: nothing scrolls sideways, axe-core finds no serious or critical violation, each page
// has its own title and the HTTP status it should, and a screenshot of each lands in
// artifacts/screenshots/. One app for the whole file.
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable())
  console.warn("[signpost e2e] /usr/bin/chromium missing (apt-get install -y chromium): page checks SKIPPED");

type PageCheck = {
  role: string;
  viewport: ViewportName;
  path: string;
  status: number | null;
  title: string;
  scrollWidth: number;
  innerWidth: number;
  axe: AxeFinding[];
};

run("every console page, every role, desk and phone", () => {
  let app: SignpostApp;
  const people: Person[] = [];
  let actionId = "";
  const results: PageCheck[] = [];

  beforeAll(async () => {
    app = await startSignpostApp();
    // One action waiting for Alice: the action and confirm pages have something real to show.
    const key = app.demo.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
    const agent = await connectAgent(app.url, key);
    try {
      const started = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          payment_type: "balance",
        },
      });
      actionId = String(started.structured.action_id);
    } finally {
      await agent.close();
    }
  }, 360_000);
  afterAll(async () => {
    await Promise.allSettled(people.map((p) => p.close()));
    await app?.stop();
    // The numbers behind the report: one line per page and size.
    for (const r of results)
      console.log(
        `[pages] ${r.role.padEnd(7)} ${r.viewport.padEnd(7)} ${String(r.status).padEnd(4)} ${r.path.padEnd(36)} width ${r.scrollWidth}/${r.innerWidth} axe ${r.axe.map((a) => `${a.id}×${a.nodes}`).join(",") || "0"} · ${r.title}`,
      );
  }, 60_000);

  const slug = (path: string) =>
    path === "/" ? "overview" : path.replace(/^\//, "").replaceAll("/", "-").replace(actionId, "id");

  async function check(page: Page, role: string, viewport: ViewportName, path: string) {
    const _started = Date.now();
    await page.setViewportSize(VIEWPORTS[viewport]);
    const response = await page.goto(`${app.url}${path}`);
    await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
    await settled(page);
    const { scrollWidth, innerWidth } = await sidewaysOverflow(page);
    // axe at both sizes: the phone has its own top bar, menu button and tables shown as cards.
    const axe = await seriousAxeViolations(page);
    await screenshot(page, `${role}-${slug(path)}-${viewport}`);
    const result: PageCheck = {
      role,
      viewport,
      path,
      status: response?.status() ?? null,
      title: await page.title(),
      scrollWidth,
      innerWidth,
      axe,
    };
    results.push(result);
    console.log(
      `[pages] ${role} ${viewport} ${path} ${result.status} ${scrollWidth}/${innerWidth} axe ${axe.length}`,
    );
    return result;
  }

  /** Checks every page at both sizes and asserts at the end, so one run names every failure. */
  async function checkAll(person: Person, role: string, pages: { path: string; status: number }[]) {
    const mine: PageCheck[] = [];
    for (const viewport of ["desktop", "phone"] as const)
      for (const { path } of pages) mine.push(await check(person.page, role, viewport, path));
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

  it("signed out: the sign-in page fits both sizes and passes axe", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await checkAll({ browser, page, email: "", close: () => browser.close() }, "anon", [
        { path: "/sign-in", status: 200 },
      ]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("Alice (member): her pages, a 403 for the admin pages and a 404 with navigation", async () => {
    const alice = await signInAs(app.url, "alice@acme.test", app.password);
    people.push(alice);
    await checkAll(alice, "alice", [
      { path: "/", status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${actionId}`, status: 200 },
      { path: `/confirm/${actionId}`, status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/permissions", status: 403 },
      { path: "/monitor", status: 403 },
      { path: "/no-such-page", status: 404 },
    ]);
    // The 404 and 403 pages keep the console's navigation: the person can go on from there.
    await alice.page.goto(`${app.url}/no-such-page`);
    await alice.page.getByRole("link", { name: "Go to the overview" }).waitFor();
  }, 600_000);

  it("Sam (support): the monitor and actions, a 403 for admin pages", async () => {
    const sam = await signInAs(app.url, "sam@acme.test", app.password);
    people.push(sam);
    await checkAll(sam, "sam", [
      { path: "/", status: 200 },
      { path: "/monitor", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${actionId}`, status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/agents", status: 403 },
    ]);
  }, 600_000);

  it("Adam (admin): every page", async () => {
    const adam = await signInAs(app.url, "adam@acme.test", app.password);
    people.push(adam);
    await checkAll(adam, "adam", [
      { path: "/", status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/monitor", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${actionId}`, status: 200 },
      { path: `/confirm/${actionId}`, status: 200 },
      { path: "/permissions", status: 200 },
      { path: "/agents", status: 200 },
      { path: "/config", status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/search?q=mug", status: 200 },
    ]);
  }, 600_000);

  it("dark mode follows the system setting and stays readable (axe) on the busiest pages", async () => {
    const adam =
      people.find((p) => p.email === "adam@acme.test") ??
      (await signInAs(app.url, "adam@acme.test", app.password));
    await adam.page.emulateMedia({ colorScheme: "dark" });
    try {
      for (const path of ["/", `/confirm/${actionId}`, "/monitor", "/actions", "/permissions"]) {
        for (const viewport of ["desktop", "phone"] as const) {
          await adam.page.setViewportSize(VIEWPORTS[viewport]);
          await adam.page.goto(`${app.url}${path}`);
          await adam.page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
          await settled(adam.page);
          // The page really is dark: the body's background is near black.
          const bg = await adam.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          expect(bg, `${path} background`).not.toBe("rgb(248, 250, 252)");
          await screenshot(adam.page, `adam-${slug(path)}-${viewport}-dark`);
          expect(await seriousAxeViolations(adam.page), `${path} in dark mode (${viewport})`).toEqual([]);
        }
      }
    } finally {
      await adam.page.emulateMedia({ colorScheme: "light" });
    }
  }, 300_000);
});
