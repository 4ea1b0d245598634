import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page, type Browser as PlaywrightBrowser } from "playwright-core";
import { afterAll, describe } from "vitest";

/**
 * Debian's Chromium headless shell (`apt-get install -y chromium-headless-shell`: the same Blink,
 * without the full browser's UI layers; what Playwright itself runs headless tests on), else
 * Debian's Chromium; override with CHROMIUM_PATH. The shell ran the admin's page checks in 50 s
 * where full Chromium took 58 s.
 */
export const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

export function chromiumAvailable(): boolean {
  return existsSync(chromiumPath);
}

/**
 * `describe` for a file that drives Chromium, or `describe.skip` with one line saying what did
 * not run and how to install it (`.ci/run` installs it; a machine without it skips, counted).
 */
export function describeInChromium(what: string): typeof describe | typeof describe.skip {
  if (chromiumAvailable()) return describe;
  console.warn(`[signpost e2e] Chromium missing (apt-get install -y chromium): ${what} SKIPPED`);
  return describe.skip;
}

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export type Browser = { context: BrowserContext; close(): Promise<void> };

export type LaunchOptions = {
  viewport?: { width: number; height: number };
  /** A phone: touch, mobile viewport meta honoured, a high-density screen. */
  phone?: boolean;
  /** Browser permissions granted up front, e.g. ["notifications"]. */
  permissions?: string[];
};

// One Chromium process per test file, started on first use and closed after the file: starting
// Chromium with a profile measured 12–17 s at load 16 here, a fresh context in a running one 2.5 s.
let shared: Promise<PlaywrightBrowser> | undefined;
afterAll(async () => {
  const browser = shared;
  shared = undefined;
  if (browser) await (await browser).close().catch(() => undefined);
});

/**
 * A fresh browser context per call (a person): its own cookies, storage, cache and permissions,
 * so nothing leaks between people in a test; the Chromium process under it is the file's one.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: chromiumPath, headless: true, args: FLAGS });
  const context = await (await shared).newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    ...(options.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
    },
  };
}

export const screenshotsDir = join(process.cwd(), "artifacts", "screenshots");

/** Saves a full-page screenshot into artifacts/screenshots (gitignored; CI keeps it as an artifact). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotsDir, { recursive: true });
  const path = join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
