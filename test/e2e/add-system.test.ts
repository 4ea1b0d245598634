import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium } from "./helpers/chromium";
import { type Person, signInAs } from "./helpers/console-page";
import { connectAgent } from "./helpers/mcp-agent";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

// Issue 13's "done when", in real Chromium against an `npm start`-style server: an admin connects
// a system with one console form (the demo legacy service's own OpenAPI document, by URL), sets
// its key on the new card, and an agent can search and navigate it at once, no restart.
const run = describeInChromium("add-system e2e");

run("Add a system in the console", () => {
  let app: SignpostApp;
  let adam: Person | undefined;
  beforeAll(async () => {
    app = await startSignpostApp();
  }, 360_000);
  afterAll(async () => {
    await adam?.close();
    await app?.stop();
  }, 60_000);

  it("previews, imports, takes the key on the new card; the agent searches and reads it at once", async () => {
    adam = await signInAs(app.url, "adam@acme.test", app.password, "/config");
    const page = adam.page;
    await page.goto(`${app.url}/config`);
    await page.getByLabel("Id (its URI scheme)").fill("backend");
    await page.getByLabel("Base URL of the API").fill(app.legacy.url);
    await page.getByLabel("…or its URL").fill(`${app.legacy.url}/openapi.json`);
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByTestId("import-summary").filter({ hasText: "Preview:" }).waitFor();
    expect(await page.getByTestId("import-summary").textContent()).toMatch(/Nothing was changed yet/);
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByTestId("import-summary").filter({ hasText: "Imported:" }).waitFor();
    const card = page.getByTestId("connector-backend");
    await card.waitFor();
    const key = card.locator("#secret-backend-bearerauth");
    await key.fill(app.legacy.apiKeys.acme);
    await key
      .locator("xpath=ancestor::form")
      .getByRole("button", { name: /^(Set|Replace)$/ })
      .click();
    await card.getByTestId("secret-state-backend-bearerauth").filter({ hasText: "set" }).waitFor();

    const agentKey = app.demo.agents.find((a) => a.user === "adam@acme.test")?.key;
    if (!agentKey) throw new Error("no demo agent for adam");
    const agent = await connectAgent(app.url, agentKey);
    try {
      const found = await agent.call("search", { query: "products catalog" });
      expect(found.text).toContain("(backend://v1/products)");
      const products = await agent.call("navigate", { uri: "backend://v1/products" });
      expect(products.structured.outcome, products.text).toBe("applied");
      expect(products.text).toContain("prod_mug");
      expect(products.text).not.toContain(app.legacy.apiKeys.acme);
    } finally {
      await agent.close();
    }
  }, 180_000);
});
