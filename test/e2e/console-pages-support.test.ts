import { describe, expect, it } from "vitest";
import { chromiumAvailable, screenshot } from "./helpers/chromium";
import { signInAs } from "./helpers/console-page";
import { usePagesWorld } from "./helpers/console-pages-check";
import { seriousAxeViolations, settled, VIEWPORTS } from "./helpers/page-checks";

// The console's pages for support (Sam), and the busiest pages in dark mode, at a desk and on a
// phone, in real Chromium (what is checked: test/e2e/helpers/console-pages-check.ts).
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable())
  console.warn("[signpost e2e] /usr/bin/chromium missing (apt-get install -y chromium): page checks SKIPPED");

run("console pages for support, and dark mode, desk and phone", () => {
  const w = usePagesWorld();

  it("Sam (support): the monitor and actions, a 403 for admin pages", async () => {
    const sam = await signInAs(w.app.url, "sam@acme.test", w.app.password);
    w.people.push(sam);
    await w.checkAll(sam, "sam", [
      { path: "/", status: 200 },
      { path: "/monitor", status: 200 },
      { path: "/actions", status: 200 },
      { path: `/actions/${w.actionId}`, status: 200 },
      { path: "/approvals", status: 200 },
      { path: "/catalog", status: 200 },
      { path: "/settings", status: 200 },
      { path: "/agents", status: 403 },
    ]);
  }, 600_000);

  it("dark mode follows the system setting and stays readable (axe) on the busiest pages", async () => {
    const adam = await signInAs(w.app.url, "adam@acme.test", w.app.password);
    w.people.push(adam);
    await adam.page.emulateMedia({ colorScheme: "dark" });
    for (const path of ["/", `/confirm/${w.actionId}`, "/monitor", "/actions", "/permissions"]) {
      for (const viewport of ["desktop", "phone"] as const) {
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
    }
  }, 300_000);
});
