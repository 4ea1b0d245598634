import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * The two sizes every console page is checked at: a desk and a phone. The phone is the narrowest
 * common one (360 px, small Android): what fits there fits the 390–430 px phones too.
 */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 360, height: 780 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * How far the page scrolls sideways: the document's scroll width against the viewport's. A page
 * that fits has 0; anything above means something is wider than the screen (the phone scrolls
 * sideways, and the person may not see the amount or the button).
 */
export async function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

export type AxeFinding = { id: string; impact: string; help: string; nodes: number; targets: string[] };

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA and best
 * practice). Legacy mode runs axe in the page itself: the default mode finishes each run in a new
 * blank page, which cost ~1 s of the ~2 s per check (74 checks a run). Its one loss, cross-origin
 * frames, does not apply: the console embeds no frames.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  const frames = page.frames().length;
  if (frames !== 1)
    throw new Error(`${page.url()} has ${frames - 1} frame(s): axe's legacy mode would skip them`);
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: String(v.impact),
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
}

/**
 * Waits until client sections have loaded: no loading indicator is left on the page. (Not
 * "networkidle": the console keeps its live event stream open, so the network never idles.)
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  for (let i = 0; i < 100; i++) {
    const loading = await page
      .getByRole("status")
      .filter({ hasText: /Loading/ })
      .count();
    if (loading === 0) return;
    await page.waitForTimeout(100);
  }
}
