import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type Browser, type LaunchOptions, launchChromium } from "./chromium";

export type Person = { browser: Browser; page: Page; email: string; close(): Promise<void> };

/** Opens a fresh Chromium profile and signs in through the real sign-in form. */
export async function signInAs(
  baseUrl: string,
  email: string,
  password: string,
  next = "/",
  options: LaunchOptions = {},
): Promise<Person> {
  const browser = await launchChromium(options);
  const page = await browser.context.newPage();
  await page.goto(`${baseUrl}/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Attached, not visible: on a phone the navigation (and the name in it) is behind the menu button.
  await page.getByTestId("signed-in-user").waitFor({ state: "attached", timeout: 20_000 });
  expect(await page.getByTestId("signed-in-user").textContent()).toBeTruthy();
  return { browser, page, email, close: () => browser.close() };
}

/** A same-origin JSON call from inside the signed-in page (the browser adds cookie and Origin). */
export async function pageFetch(page: Page, path: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(path, {
        method: init.method ?? "GET",
        headers: init.body === undefined ? {} : { "content-type": "application/json" },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      return {
        status: res.status,
        text,
        json: (() => {
          try {
            return JSON.parse(text);
          } catch {
            return null;
          }
        })(),
      };
    },
    { path, init },
  );
}
