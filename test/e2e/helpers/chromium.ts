import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`); override with CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function chromiumAvailable(): boolean {
  return existsSync(chromiumPath);
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

/** A fresh Chromium profile per call: no cookies or cache leak between people in a test. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), "signpost-chromium-"));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: options.viewport ?? { width: 1400, height: 900 },
    ...(options.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
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
