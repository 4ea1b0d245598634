import { expect, it } from "vitest";
import { describeInChromium, screenshot } from "./helpers/chromium";
import { signInAs } from "./helpers/console-page";
import { usePagesWorld } from "./helpers/console-pages-check";
import { seriousAxeViolations, settled, VIEWPORTS } from "./helpers/page-checks";

// Every console page for an admin (Adam), at a desk and on a phone, and the busiest pages in dark
// mode, in real Chromium (what is checked: test/e2e/helpers/console-pages-check.ts). The admin's
// view shows the most (every column, button and section), so its axe runs cover the components
// the other roles' views are made of (console-pages-people).
const run = describeInChromium("page checks");

run("console pages for an admin, desk and phone, light and dark", () => {
  const w = usePagesWorld();

  it("Adam (admin): every page", async () => {
    const adam = await signInAs(w.app.url, "adam@acme.test", w.app.password);
    w.people.push(adam);
    await w.checkAll(adam, "adam", [
      { path: "/", status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/monitor", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${w.actionId}`, status: 200 },
      { path: `/confirm/${w.actionId}`, status: 200 },
      { path: "/permissions", status: 200 },
      { path: "/agents", status: 200 },
      { path: "/config", status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/search?q=mug", status: 200 },
    ]);
  }, 600_000);

  it("dark mode follows the system setting and stays readable (axe) on the busiest pages", async () => {
    const adam = await signInAs(w.app.url, "adam@acme.test", w.app.password);
    w.people.push(adam);
    await adam.page.emulateMedia({ colorScheme: "dark" });
    // Colours do not change with the width: every page at the desk, and the confirm screen (the
    // one a person decides on, often on a phone) at both sizes.
    const checks = [
      ...["/", `/confirm/${w.actionId}`, "/monitor", "/actions", "/permissions"].map((path) => ({
        path,
        viewport: "desktop" as const,
      })),
      { path: `/confirm/${w.actionId}`, viewport: "phone" as const },
    ];
    for (const { path, viewport } of checks) {
      await adam.page.setViewportSize(VIEWPORTS[viewport]);
      await adam.page.goto(`${w.app.url}${path}`);
      await adam.page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 60_000 });
      await settled(adam.page);
      // The page really is dark: the body's background is near black.
      const bg = await adam.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg, `${path} background`).not.toBe("rgb(248, 250, 252)");
      await screenshot(adam.page, `adam-${w.slug(path)}-${viewport}-dark`);
      expect(await seriousAxeViolations(adam.page), `${path} in dark mode (${viewport})`).toEqual([]);
    }
  }, 300_000);
});
