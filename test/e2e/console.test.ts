import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium, screenshot } from "./helpers/chromium";
import { type Person, pageFetch, signInAs } from "./helpers/console-page";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

// Browser end-to-end tests of the console in real Chromium against an `npm start`-style server.
const run = chromiumAvailable() ? describe : describe.skip;
if (!chromiumAvailable())
  console.warn("[signpost e2e] /usr/bin/chromium missing (apt-get install -y chromium): console e2e SKIPPED");

run("console in Chromium", () => {
  let app: SignpostApp;
  const people: Person[] = [];
  const as = async (email: string, next = "/") => {
    const person = await signInAs(app.url, email, app.password, next);
    people.push(person);
    return person;
  };

  beforeAll(async () => {
    app = await startSignpostApp();
  }, 360_000);
  afterAll(async () => {
    await Promise.allSettled(people.map((p) => p.close()));
    await app?.stop();
  }, 60_000);

  it("the demo logins printed by npm start sign in; a wrong password does not", async () => {
    const logins = app.demo.logins.map((l) => l.email).sort();
    expect(logins).toEqual(["adam@acme.test", "alice@acme.test", "gina@globex.test", "sam@acme.test"]);
    for (const email of ["alice@acme.test", "adam@acme.test", "sam@acme.test"]) {
      const person = await as(email);
      expect(await person.page.getByTestId("signed-in-user").textContent()).toMatch(/\w/);
    }
    const browser = await launchChromium();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${app.url}/approvals`);
      expect(new URL(page.url()).pathname).toBe("/sign-in");
      await screenshot(page, "sign-in");
      await page.getByLabel("Email").fill("adam@acme.test");
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("That email and password do not match.").waitFor();
      const cookies = await browser.context.cookies();
      expect(cookies.find((c) => c.name === "sp_session")).toBeUndefined();
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("the session cookie is HttpOnly and SameSite=Lax; the database keeps only its hash", async () => {
    const adam = people.find((p) => p.email === "adam@acme.test") ?? (await as("adam@acme.test"));
    const cookie = (await adam.browser.context.cookies()).find((c) => c.name === "sp_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });
    const raw = await adam.page.evaluate(() => document.cookie);
    expect(raw).not.toContain("sp_session");
  });

  it("role and tenant checks: member on /permissions, support approving, another tenant's ids, CSRF", async () => {
    const alice = people.find((p) => p.email === "alice@acme.test") ?? (await as("alice@acme.test"));
    const sam = people.find((p) => p.email === "sam@acme.test") ?? (await as("sam@acme.test"));
    const gina = await as("gina@globex.test");
    // A member opening the admin pages: a 403 state, and the APIs answer 403.
    await alice.page.goto(`${app.url}/permissions`);
    await alice.page.getByTestId("forbidden").waitFor();
    await screenshot(alice.page, "member-on-permissions-forbidden");
    expect((await pageFetch(alice.page, "/api/console/permissions/rules")).status).toBe(403);
    expect(
      (
        await pageFetch(alice.page, "/api/console/agents", {
          method: "POST",
          body: { name: "x", userId: "y" },
        })
      ).status,
    ).toBe(403);
    expect((await pageFetch(alice.page, "/api/console/audit")).status).toBe(403);
    // Support may watch but never approve.
    const decision = await pageFetch(sam.page, "/api/console/actions/any/decision", {
      method: "POST",
      body: { decision: "approve", version: 1 },
    });
    expect(decision.status).toBe(403);
    // Nav shows only what the role may open.
    await alice.page.goto(`${app.url}/`);
    const navLinks = await alice.page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link")
      .allTextContents();
    expect(navLinks.join(" ")).not.toMatch(/Permissions|Agents|Connectors|Live monitor/);
    // Another tenant's objects do not exist for gina (globex): an acme agent id and an acme rule.
    const adam = people.find((p) => p.email === "adam@acme.test") ?? (await as("adam@acme.test"));
    const agents = (await pageFetch(adam.page, "/api/console/agents")).json as { agents: { id: string }[] };
    const acmeAgent = agents.agents[0]?.id ?? "";
    expect(acmeAgent).not.toBe("");
    expect(
      (await pageFetch(gina.page, `/api/console/agents/${acmeAgent}/revoke`, { method: "POST" })).status,
    ).toBe(403);
    expect((await pageFetch(gina.page, `/api/console/actions/${acmeAgent}`)).status).toBe(404);
    // Unauthenticated and cross-origin requests are refused before anything runs.
    const anon = await fetch(`${app.url}/api/console/summary`);
    expect(anon.status).toBe(401);
    const cookie = (await adam.browser.context.cookies()).find((c) => c.name === "sp_session");
    const forged = await fetch(`${app.url}/api/console/agents/${acmeAgent}/revoke`, {
      method: "POST",
      headers: { cookie: `sp_session=${cookie?.value}`, origin: "https://evil.example" },
    });
    expect(forged.status).toBe(403);
    const noOrigin = await fetch(`${app.url}/api/console/agents/${acmeAgent}/revoke`, {
      method: "POST",
      headers: { cookie: `sp_session=${cookie?.value}` },
    });
    expect(noOrigin.status).toBe(403);
    const still = (await pageFetch(adam.page, "/api/console/agents")).json as {
      agents: { id: string; revokedAt: string | null }[];
    };
    expect(still.agents.find((a) => a.id === acmeAgent)?.revokedAt).toBeNull();
  }, 120_000);
});
