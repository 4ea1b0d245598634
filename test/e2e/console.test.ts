// stays-whole: one browser session walking the console, started once (Chromium and the app).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { updateConnectorSettings } from "@/server/gateway/console/manage-connectors";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { insertAuditRows } from "../helpers/database";
import { describeInChromium, launchChromium, screenshot } from "./helpers/chromium";
import { type Person, pageFetch, signInAs } from "./helpers/console-page";
import { connectAgent } from "./helpers/mcp-agent";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

const idem = (label: string) => `e2e-${label}-${Math.random().toString(36).slice(2, 10)}`;

// Browser end-to-end tests of the console in real Chromium against an `npm start`-style server.
const run = describeInChromium("console e2e");

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
      // Signed out: a real redirect (not a page shell) to sign-in, with the way back.
      const response = await page.goto(`${app.url}/approvals`);
      expect(new URL(page.url()).pathname).toBe("/sign-in");
      expect(new URL(page.url()).searchParams.get("next")).toBe("/approvals");
      expect(response?.request().redirectedFrom()?.url()).toContain("/approvals");
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
    // The table holds the token's SHA-256, never the token the browser carries.
    const db = createDb(app.databaseUrl);
    try {
      const sessions = await db.session.findMany({ select: { tokenHash: true } });
      const token = String(cookie?.value);
      expect(sessions.map((s) => s.tokenHash)).toContain(createHash("sha256").update(token).digest("hex"));
      expect(JSON.stringify(sessions)).not.toContain(token);
    } finally {
      await db.$disconnect();
    }
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
    // Alice's charge is Alice's decision: support and an admin can watch it, never approve it.
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    const started = await agent.call("start_action", {
      capability: "checkout",
      patch: {
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "Office",
        shipping_method: "standard",
        payment_type: "balance",
      },
    });
    await agent.close();
    const charge = String(started.structured.action_id);
    const adamPerson = await person("adam@acme.test");
    for (const who of [sam, adamPerson]) {
      const decision = await pageFetch(who.page, `/api/console/actions/${charge}/decision`, {
        method: "POST",
        body: { decision: "approve", version: 1 },
      });
      expect(decision.status).toBe(403);
      expect(JSON.stringify(decision.json)).toContain("Only Alice can decide this action");
    }
    // Nav shows only what the role may open.
    await alice.page.goto(`${app.url}/`);
    const navLinks = await alice.page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link")
      .allTextContents();
    expect(navLinks.join(" ")).not.toMatch(/Permissions|Agents|Connectors|Live monitor/);
    // Gina (a Globex member) is stopped by the admin-only role gate before tenancy is asked;
    // Acme's charge, which the same route shows Alice, does not exist for her. (Same role
    // across tenants, for every mutating route: test/tenancy/.)
    const adam = people.find((p) => p.email === "adam@acme.test") ?? (await as("adam@acme.test"));
    const agents = (await pageFetch(adam.page, "/api/console/agents")).json as { agents: { id: string }[] };
    const acmeAgent = agents.agents[0]?.id ?? "";
    expect(acmeAgent).not.toBe("");
    const revoke = await pageFetch(gina.page, `/api/console/agents/${acmeAgent}/revoke`, { method: "POST" });
    expect(revoke.status).toBe(403);
    expect(revoke.json).toMatchObject({ error: { code: "forbidden" } });
    expect((await pageFetch(alice.page, `/api/console/actions/${charge}`)).status).toBe(200);
    const theirs = await pageFetch(gina.page, `/api/console/actions/${charge}`);
    expect(theirs.status).toBe(404);
    expect(theirs.json).toMatchObject({ error: { code: "not_found" } });
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

  const person = async (email: string) => people.find((p) => p.email === email) ?? (await as(email));
  const agentKey = (user: string) => {
    const agent = app.demo.agents.find((a) => a.user === user);
    if (!agent) throw new Error(`no demo agent for ${user}`);
    return agent.key;
  };
  async function legacyPayments(reference: string) {
    const res = await fetch(`${app.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
      headers: { authorization: `Bearer ${app.legacy.apiKeys.acme}` },
    });
    const body = (await res.json()) as { data?: unknown[] } | unknown[];
    return Array.isArray(body) ? body : (body.data ?? []);
  }
  let checkoutActionId = "";

  it("a member approves the checkout an agent prepared over MCP; confirm then succeeds exactly once; support sees it live", async () => {
    const alice = await person("alice@acme.test");
    const sam = await person("sam@acme.test");
    await alice.page.goto(`${app.url}/approvals`);
    await alice.page.getByRole("heading", { name: "Approvals" }).waitFor();
    await sam.page.goto(`${app.url}/monitor`);
    await sam.page.getByTestId("live-status").filter({ hasText: "live" }).waitFor({ timeout: 15_000 });
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    try {
      const search = await agent.call("search_capabilities", {
        query: "buy two mugs, ship to the office, pay from my balance",
      });
      const searchedAt = Date.now();
      expect(JSON.stringify(search.structured)).toContain("checkout");
      // Support sees the call appear live: the app runs with a 60 s safety poll, so a row that
      // shows up within the wait was pushed. The latency is printed, not asserted (noisy machine).
      await sam.page
        .locator("[data-testid=monitor-row]", { hasText: "capability.searched" })
        .first()
        .waitFor({ timeout: 5_000 });
      const monitorLatencyMs = Date.now() - searchedAt;
      console.log(`[e2e] monitor latency after the agent's call returned: ${monitorLatencyMs} ms`);

      const start = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 2 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      expect(start.structured).toMatchObject({ outcome: "applied", requires_confirmation: true });
      const id = String(start.structured.action_id);
      const version = Number(start.structured.version);
      checkoutActionId = id;
      // The member's approvals page updates live (no reload) and the nav shows the count.
      await alice.page
        .locator(`[data-testid=approval-item][data-action-id="${id}"]`)
        .waitFor({ timeout: 5_000 });
      await alice.page.getByTestId("pending-count").waitFor({ timeout: 5_000 });
      await screenshot(alice.page, "approvals");
      const early = await agent.call("confirm_action", {
        action_id: id,
        version,
        idempotency_key: idem("early"),
      });
      expect(early.structured).toMatchObject({ outcome: "rejected", reason: "approval_pending" });

      await alice.page
        .locator(`[data-testid=approval-item][data-action-id="${id}"]`)
        .getByRole("link", { name: "Review and decide" })
        .click();
      await alice.page.waitForURL(`**/confirm/${id}`);
      await alice.page.getByTestId("confirmation-summary").waitFor();
      expect(await alice.page.getByTestId("confirmation-summary").textContent()).toContain("$41.00");
      await screenshot(alice.page, "confirm");
      await alice.page.getByRole("button", { name: "Pay $41.00 from Store credit" }).click();
      await alice.page.getByTestId("decision-result").waitFor();
      // Her approval paid it, with no confirm_action from the agent: the screen shows the result.
      expect(await alice.page.getByTestId("approved-result").textContent()).toMatch(
        /^Done: .*verified at the system of record.*\(reference \S+\)/,
      );
      expect(await legacyPayments(`sp_${id}_v${version}`)).toHaveLength(1);
      await screenshot(alice.page, "confirm-approved");

      const key = idem("confirm");
      const confirmed = await agent.call("confirm_action", { action_id: id, version, idempotency_key: key });
      // The agent's confirm finds what the approval did: applied and verified, nothing sent again.
      expect(confirmed.structured).toMatchObject({
        outcome: "applied",
        status: "completed",
        reason: "applied_on_approval",
      });
      const again = await agent.call("confirm_action", {
        action_id: id,
        version,
        idempotency_key: idem("other"),
      });
      expect(again.structured).toMatchObject({
        outcome: "applied",
        external_id: confirmed.structured.external_id,
      });
      const actionKey = (confirmed.structured.effect as { action_key: string }).action_key;
      expect(await legacyPayments(actionKey)).toHaveLength(1);

      // Support filters the monitor down to confirmations and opens one.
      await sam.page.getByLabel("Operation", { exact: true }).fill("action.confirmed");
      await expect
        .poll(
          async () => {
            const texts = await sam.page.locator("[data-testid=monitor-row]").allTextContents();
            return texts.length >= 2 && texts.every((t) => t.includes("action.confirmed"));
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      await sam.page.locator("[data-testid=monitor-row]").first().click();
      await sam.page.getByTestId("monitor-detail").waitFor();
      expect(await sam.page.getByTestId("monitor-detail").textContent()).toContain(id);
      await screenshot(sam.page, "monitor");

      // The action page shows the timeline, the approval and one applied effect.
      const adam = await person("adam@acme.test");
      await adam.page.goto(`${app.url}/actions/${id}`);
      await adam.page.getByTestId("effect-ledger").waitFor();
      expect(await adam.page.getByTestId("effect-ledger").textContent()).toMatch(/applied/);
      await screenshot(adam.page, "action-detail");
      await adam.page.goto(`${app.url}/actions`);
      await adam.page.getByTestId("actions-table").waitFor();
      await screenshot(adam.page, "actions");
      // Another tenant cannot open it, not even by id.
      const gina = await person("gina@globex.test");
      await gina.page.goto(`${app.url}/actions/${id}`);
      expect(await gina.page.content()).toMatch(/404|could not be found/i);
      expect(
        (
          await pageFetch(gina.page, `/api/console/actions/${id}/decision`, {
            method: "POST",
            body: { decision: "approve", version },
          })
        ).status,
      ).toBe(404);
    } finally {
      await agent.close();
    }
  }, 180_000);

  it("support sees a script run live in the monitor, its calls marked and grouped under the run", async () => {
    const sam = await person("sam@acme.test");
    await sam.page.goto(`${app.url}/monitor`);
    await sam.page.getByTestId("live-status").filter({ hasText: "live" }).waitFor({ timeout: 15_000 });
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"), "all");
    try {
      const run = await agent.call("run_script", {
        code: "const a = await navigate('shop://orders'); const b = await searchCapabilities('refund my order'); return [a.outcome, b.outcome];",
      });
      expect(run.structured).toMatchObject({ outcome: "applied", result: ["applied", "applied"] });
    } finally {
      await agent.close();
    }
    const ran = sam.page.locator("[data-testid=monitor-row]", { hasText: "script.ran" }).first();
    await ran.waitFor({ timeout: 10_000 });
    // Newest first: the run's row, then its two calls, each marked as a script's call.
    const calls = sam.page.locator("[data-testid=monitor-row]", { hasText: "↳" });
    expect(await calls.count()).toBeGreaterThanOrEqual(2);
    await ran.click();
    const group = sam.page.getByTestId("monitor-script-run");
    await group.waitFor();
    const lines = await group.locator("li").allTextContents();
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain("browse.navigated");
    expect(lines[1]).toContain("capability.searched");
    expect(lines[2]).toContain("script.ran");
    await screenshot(sam.page, "monitor-script-run");
  });

  it("admin denies submit on shop://order/*/after-sales; the agent is refused, requests permission, admin grants it, the retry succeeds", async () => {
    const adam = await person("adam@acme.test");
    const uri = "shop://order/ord_paid/after-sales";
    await adam.page.goto(`${app.url}/permissions`);
    await adam.page.getByRole("heading", { name: "Permissions" }).waitFor();
    const form = adam.page.getByRole("form", { name: "Add rule" });
    await form.getByLabel("Verb").selectOption("submit");
    await form.getByLabel("URI or capability pattern").fill("shop://order/*/after-sales");
    await form.getByLabel("Decision").selectOption("deny");
    await form.getByRole("button", { name: "Add rule" }).click();
    await adam.page.locator("[data-testid=rule-row]", { hasText: "shop://order/*/after-sales" }).waitFor();

    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    try {
      const fields = { kind: "refund_only", reason: "Ordered the wrong size" };
      const denied = await agent.call("submit", { uri, fields });
      expect(denied.structured).toMatchObject({ outcome: "rejected", title: "Permission required" });
      expect(denied.text).toContain("signpost://permissions/request");
      const asked = await agent.call("submit", {
        uri: "signpost://permissions/request",
        fields: { verb: "submit", target: uri, reason: "The user wants a refund for this order" },
      });
      expect(asked.structured).toMatchObject({ outcome: "applied" });

      // The request reaches the admin's page live; the tester says deny, names the rule.
      const request = adam.page.locator("[data-testid=permission-request]", { hasText: uri });
      await request.waitFor({ timeout: 10_000 });
      await screenshot(adam.page, "permissions");
      const agentName = app.demo.agents.find((a) => a.user === "alice@acme.test")?.name ?? "";
      await adam.page.getByLabel("Agent", { exact: true }).selectOption({ label: agentName });
      await adam.page.getByLabel("Verb", { exact: true }).last().selectOption("submit");
      await adam.page.getByLabel("URI or capability", { exact: true }).fill(uri);
      await adam.page.getByRole("button", { name: "Check" }).click();
      await adam.page.getByTestId("tester-result").filter({ hasText: "deny" }).waitFor();
      await request.getByRole("button", { name: "Grant as rule" }).click();
      await request.waitFor({ state: "detached", timeout: 10_000 });
      await adam.page.getByRole("button", { name: "Check" }).click();
      await adam.page.getByTestId("tester-result").filter({ hasText: "allow" }).waitFor();
      await screenshot(adam.page, "permissions-granted");

      const retry = await agent.call("submit", { uri, fields });
      expect(retry.structured.title).not.toBe("Permission required");
      expect(retry.text).not.toMatch(/You may not submit/);
    } finally {
      await agent.close();
    }
  }, 180_000);

  it("admin replaces the legacy API key and test connection passes; the value is never in any page or API response", async () => {
    const adam = await person("adam@acme.test");
    const wrong = `lk_wrong_${Math.random().toString(36).slice(2)}`;
    const right = app.legacy.apiKeys.acme;
    await adam.page.goto(`${app.url}/config`);
    const shop = adam.page.getByTestId("connector-shop");
    await shop.waitFor();
    await shop.getByLabel("New value (write-only)").fill(wrong);
    await shop.getByRole("button", { name: "Replace" }).click();
    await shop.getByText("Saved. The value cannot be read back.").waitFor();
    await shop.getByRole("button", { name: "Test connection" }).click();
    await shop.getByTestId("test-result-shop").filter({ hasText: "refused the key" }).waitFor();
    await shop.getByLabel("New value (write-only)").fill(right);
    await shop.getByRole("button", { name: "Replace" }).click();
    await shop.getByText("Saved. The value cannot be read back.").waitFor();
    await shop.getByRole("button", { name: "Test connection" }).click();
    await shop.getByTestId("test-result-shop").filter({ hasText: "Connected" }).waitFor();
    await screenshot(adam.page, "config");
    expect(await shop.getByLabel("New value (write-only)").inputValue()).toBe("");

    const pages = [
      "/",
      "/approvals",
      "/monitor",
      "/actions",
      "/permissions",
      "/agents",
      "/config",
      "/catalog",
      `/actions/${checkoutActionId}`,
      `/confirm/${checkoutActionId}`,
    ];
    const apis = [
      "/api/console/config",
      "/api/console/summary",
      "/api/console/audit?limit=1000",
      "/api/console/actions",
      "/api/console/agents",
      "/api/console/permissions/rules",
      "/api/console/permissions/requests?status=all",
      "/api/console/recovery",
      "/api/console/approvals?status=decided",
      `/api/console/actions/${checkoutActionId}`,
    ];
    for (const path of [...pages, ...apis]) {
      const res = await pageFetch(adam.page, path);
      expect(res.status, path).toBe(200);
      expect(res.text.includes(wrong), `${path} leaks the old value`).toBe(false);
      expect(res.text.includes(right), `${path} leaks the key`).toBe(false);
    }
    for (const path of pages) {
      await adam.page.goto(`${app.url}${path}`);
      await adam.page.waitForLoadState("networkidle").catch(() => undefined);
      const html = await adam.page.content();
      expect(html.includes(right) || html.includes(wrong), `${path} rendered a secret`).toBe(false);
    }
    const audit = (await pageFetch(adam.page, "/api/console/audit?operation=secret.replaced")).json as {
      events: { arguments: unknown }[];
    };
    expect(audit.events.length).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it("a minted key is shown once; the agents, overview and catalog pages render (screenshots of each)", async () => {
    const adam = await person("adam@acme.test");
    await adam.page.goto(`${app.url}/agents`);
    await adam.page.getByLabel("Name").fill("e2e assistant");
    const alice = app.demo.logins.find((l) => l.email === "alice@acme.test");
    await adam.page.getByLabel("Acts for").selectOption({ label: `Alice (${alice?.email}, member)` });
    await adam.page.getByRole("button", { name: "Create agent" }).click();
    await adam.page.getByTestId("minted-key-value").waitFor();
    expect(await adam.page.getByTestId("minted-key-value").textContent()).toMatch(/^sp_/);
    await screenshot(adam.page, "agents-key-shown-once");
    await adam.page.reload();
    await adam.page.getByTestId("agents-table").waitFor();
    expect(await adam.page.content()).not.toMatch(/data-testid="minted-key-value"/);
    await screenshot(adam.page, "agents");
    for (const [path, name] of [
      ["/", "overview"],
      ["/catalog", "catalog"],
    ] as const) {
      await adam.page.goto(`${app.url}${path}`);
      await adam.page.getByRole("heading", { level: 1 }).waitFor();
      // Client sections have loaded when no loading indicator is left.
      await expect.poll(() => adam.page.getByRole("status").filter({ hasText: "Loading" }).count()).toBe(0);
      await screenshot(adam.page, name);
    }
    // The catalog measured the real tools/list per face with the o200k tokenizer: actions,
    // browse, script, and all of them together.
    const sizes = await adam.page.getByTestId("tool-sizes").locator("tbody tr").allTextContents();
    console.log(`[e2e] tool-definition sizes: ${sizes.join(" | ")}`);
    expect(sizes).toHaveLength(4);
    expect(await adam.page.locator("[data-testid=catalog-capability]").count()).toBeGreaterThanOrEqual(8);
  }, 120_000);

  /** Reads `count` events from the SSE stream as a signed-in person, then hangs up. */
  async function readStream(
    cookie: string,
    init: { lastEventId?: number; after?: number },
    count: number,
    timeoutMs = 10_000,
  ) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const url = `${app.url}/api/console/stream${init.after === undefined ? "" : `?after=${init.after}`}`;
    const res = await fetch(url, {
      headers: {
        cookie,
        ...(init.lastEventId === undefined ? {} : { "last-event-id": String(init.lastEventId) }),
      },
      signal: controller.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events: { id: number; data: { seq: number; operation: string } }[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      while (events.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data) events.push({ id: Number(id), data: JSON.parse(data) });
          cut = buffer.indexOf("\n\n");
        }
      }
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
    return events;
  }

  it("the monitor stays light with thousands of rows; the stream resumes from Last-Event-ID without gaps and never crosses tenants", async () => {
    const db = createDb(app.databaseUrl);
    try {
      const rows = Array.from({ length: 3000 }, (_, i) => ({
        tenantId: "acme",
        face: "browse",
        operation: "page.navigated",
        target: `shop://order/bulk_${i}`,
        arguments: { uri: `shop://order/bulk_${i}` },
        outcome: "applied",
        latencyMs: i % 50,
      }));
      await insertAuditRows(db, rows);
      const [globexRow] = await insertAuditRows(db, [
        {
          tenantId: "globex",
          face: "browse",
          operation: "page.navigated",
          target: "shop://order/globex_secret_order",
          arguments: {},
          outcome: "applied",
          latencyMs: 1,
        },
      ]);
      const newest = await db.auditEvent.findFirstOrThrow({
        where: { tenantId: "acme" },
        orderBy: { seq: "desc" },
      });

      const sam = await person("sam@acme.test");
      await sam.page.goto(`${app.url}/monitor`);
      const list = sam.page.getByTestId("monitor-rows");
      await list.waitFor();
      await expect.poll(() => list.getAttribute("data-row-count")).toBe("500");
      await sam.page.getByRole("button", { name: "Load older" }).click();
      await expect.poll(() => list.getAttribute("data-row-count"), { timeout: 10_000 }).toBe("1500");
      // Virtualized: however many rows are loaded, only a window of them is in the DOM.
      expect(await sam.page.locator("[data-testid=monitor-row]").count()).toBeLessThan(60);
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect
        .poll(() => sam.page.locator("[data-testid=monitor-row]").last().getAttribute("data-seq"))
        .not.toBe(String(newest.seq));
      expect(await sam.page.locator("[data-testid=monitor-row]").count()).toBeLessThan(60);
      expect(await sam.page.content()).not.toContain("globex_secret_order");
      await list.evaluate((el) => el.scrollTo(0, 0));
      await screenshot(sam.page, "monitor-thousands");
      // Pause holds new rows back (counted on the button); resume shows them.
      await sam.page.getByRole("button", { name: "Pause" }).click();
      const before = await list.getAttribute("data-row-count");
      // Written through the app (a sign-in), not straight into the database: the test process is
      // another writer, which only the 60 s safety poll would notice.
      const signedIn = await fetch(`${app.url}/api/auth/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: app.url },
        body: JSON.stringify({ email: "alice@acme.test", password: app.password }),
      });
      expect(signedIn.status).toBe(200);
      const whilePaused = await db.auditEvent.findFirstOrThrow({
        where: { tenantId: "acme" },
        orderBy: { seq: "desc" },
      });
      expect(whilePaused.operation).toBe("session.signed_in");
      await sam.page.getByRole("button", { name: "Resume (1 new)" }).waitFor({ timeout: 5_000 });
      expect(await list.getAttribute("data-row-count")).toBe(before);
      await sam.page.getByRole("button", { name: "Resume (1 new)" }).click();
      await expect.poll(() => list.getAttribute("data-row-count")).toBe(String(Number(before) + 1));
      await sam.page.locator(`[data-testid=monitor-row][data-seq="${whilePaused.seq}"]`).waitFor();

      // Resume: from Last-Event-ID the stream sends exactly the rows after it, in order, tenant-scoped.
      const cookie = (await sam.browser.context.cookies()).find((c) => c.name === "sp_session");
      const resumed = await readStream(`sp_session=${cookie?.value}`, { lastEventId: newest.seq - 5 }, 5);
      // Exactly the rows after the cursor, in order (later rows may follow in the same chunk),
      // and never the other tenant's row that sits between them.
      expect(resumed.slice(0, 5).map((e) => e.id)).toEqual([
        newest.seq - 4,
        newest.seq - 3,
        newest.seq - 2,
        newest.seq - 1,
        newest.seq,
      ]);
      expect(resumed.map((e) => e.id)).toEqual([...resumed.map((e) => e.id)].sort((a, b) => a - b));
      expect(globexRow?.target).toBe("shop://order/globex_secret_order");
      expect(JSON.stringify(resumed)).not.toContain("globex_secret_order");
      expect(resumed.every((e) => e.data.seq === e.id)).toBe(true);
      const gina = await person("gina@globex.test");
      const ginaCookie = (await gina.browser.context.cookies()).find((c) => c.name === "sp_session");
      // Gina is a member of globex: she never receives acme rows, whatever cursor she asks for.
      const ginas = await readStream(`sp_session=${ginaCookie?.value}`, { after: 0 }, 1, 3_000);
      expect(ginas.every((e) => !JSON.stringify(e.data).includes("bulk_"))).toBe(true);
      const anon = await fetch(`${app.url}/api/console/stream`);
      expect(anon.status).toBe(401);
    } finally {
      await db.$disconnect();
    }
  }, 120_000);

  it("the MCP Apps screen shows the summary, opens Signpost for Alice to decide, and then names who decided", async () => {
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    const alice = await person("alice@acme.test");
    const browser = await launchChromium();
    try {
      const resource = await agent.client.readResource({ uri: "ui://signpost/confirm" });
      const html = (resource.contents[0] as { text?: string; mimeType?: string }) ?? {};
      expect(html.mimeType).toBe("text/html;profile=mcp-app");
      const start = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Home",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      expect(start.structured).toMatchObject({ outcome: "applied", requires_confirmation: true });
      const raw = start.raw as { _meta?: Record<string, Record<string, unknown>> };
      const id = String(start.structured.action_id);
      const version = Number(start.structured.version);
      // What the screen gets is for showing only: nothing in it can approve.
      expect(Object.keys(raw._meta?.["signpost/approval"] ?? {}).sort()).toEqual([
        "action_id",
        "console_url",
        "expires_at",
        "summary_html",
        "version",
      ]);

      const page = await browser.context.newPage();
      const calls: unknown[] = [];
      const opened: string[] = [];
      await page.exposeFunction("hostOpenLink", async (url: string) => {
        opened.push(url);
      });
      // The host bridge: the app's tools/call goes to the real MCP client (as a host would proxy it).
      await page.exposeFunction(
        "hostCallTool",
        async (params: { name: string; arguments: Record<string, unknown> }) => {
          calls.push(params);
          return JSON.parse(JSON.stringify(await agent.client.callTool(params)));
        },
      );
      await page.setContent(
        '<!doctype html><html><body><iframe id="app" sandbox="allow-scripts" style="width:900px;height:700px;border:1px solid #ccc"></iframe></body></html>',
      );
      await page.evaluate(
        ({ html, toolResult }) => {
          const frame = document.getElementById("app") as HTMLIFrameElement;
          const w = window as unknown as {
            hostCallTool(p: unknown): Promise<unknown>;
            hostOpenLink(url: string): Promise<void>;
          };
          window.addEventListener("message", async (event) => {
            const msg = event.data as { jsonrpc?: string; id?: number; method?: string; params?: unknown };
            if (msg?.jsonrpc !== "2.0" || event.source !== frame.contentWindow) return;
            const reply = (body: object) =>
              frame.contentWindow?.postMessage({ jsonrpc: "2.0", ...body }, "*");
            if (msg.method === "ui/initialize") {
              reply({
                id: msg.id,
                result: {
                  protocolVersion: "2026-01-26",
                  hostInfo: { name: "e2e-host", version: "1.0.0" },
                  hostCapabilities: {},
                  hostContext: {},
                },
              });
            } else if (msg.method === "ui/notifications/initialized") {
              reply({ method: "ui/notifications/tool-result", params: toolResult });
            } else if (msg.method === "ui/open-link") {
              // A host opens the link in the person's browser; the harness records it.
              await w.hostOpenLink(String((msg.params as { url?: string }).url));
              reply({ id: msg.id, result: {} });
            } else if (msg.method === "tools/call") {
              try {
                reply({ id: msg.id, result: await w.hostCallTool(msg.params) });
              } catch (error) {
                reply({ id: msg.id, error: { code: -32000, message: String(error) } });
              }
            }
          });
          frame.srcdoc = html;
        },
        { html: html.text ?? "", toolResult: JSON.parse(JSON.stringify(start.raw)) },
      );
      const app2 = page.frameLocator("#app");
      await expect
        .poll(() => app2.getByRole("button", { name: "Approve in Signpost" }).isEnabled(), {
          timeout: 10_000,
        })
        .toBe(true);
      // The same ConfirmationSummary component as /confirm/{id}, rendered inside the host.
      const shown = app2.locator('[data-testid="confirmation-summary"]');
      await expect.poll(() => shown.getAttribute("data-version")).toBe(String(version));
      expect(await shown.textContent()).toContain("Signpost Mug");
      await screenshot(page, "mcp-app-confirm");
      await app2.getByRole("button", { name: "Approve in Signpost" }).click();
      await expect.poll(() => opened.length, { timeout: 10_000 }).toBe(1);
      expect(new URL(opened[0] ?? "").pathname).toBe(`/confirm/${id}`);
      // The screen only ever read the approval's status.
      expect(calls.every((c) => (c as { name: string }).name === "approval_status")).toBe(true);
      const waiting = (await pageFetch(alice.page, "/api/console/approvals")).json as {
        approvals: { actionId: string; status: string; canDecide: boolean }[];
      };
      expect(waiting.approvals.find((a) => a.actionId === id)).toMatchObject({
        status: "pending",
        canDecide: true,
      });
      // Alice decides on Signpost's own page, signed in as herself.
      await alice.page.goto(`${app.url}${new URL(opened[0] ?? "").pathname}`);
      await alice.page.getByTestId("approve-button").click();
      await alice.page.getByTestId("decided-by").waitFor();
      expect(await alice.page.getByTestId("decided-by").textContent()).toMatch(
        /^Approved by Alice \(member\) on /,
      );
      // The in-host screen follows: it polls the read-only status and names the decider.
      await expect
        .poll(() => app2.locator("#status").textContent(), { timeout: 20_000 })
        .toMatch(/^approved by Alice at \d\d:\d\d UTC$/);
      await screenshot(page, "mcp-app-approved");

      const confirmed = await agent.call("confirm_action", {
        action_id: id,
        version,
        idempotency_key: idem("app"),
      });
      // Confirm checks the system of record at once: applied and verified.
      expect(confirmed.structured).toMatchObject({ outcome: "applied", status: "completed" });
      const actionKey = (confirmed.structured.effect as { action_key: string }).action_key;
      expect(await legacyPayments(actionKey)).toHaveLength(1);
      const adam = await person("adam@acme.test");
      const detail = (await pageFetch(adam.page, `/api/console/actions/${id}`)).json as {
        action: { approvals: { status: string; decidedVia: string; decidedBy: string }[] };
      };
      expect(detail.action.approvals.at(-1)).toMatchObject({
        status: "approved",
        decidedVia: "console",
        decidedBy: "Alice (member)",
      });
    } finally {
      await browser.close();
      await agent.close();
    }
  }, 120_000);

  it("a stale version shows 'this changed since, review again'; a rejection with a reason reaches the agent", async () => {
    const alice = await person("alice@acme.test");
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    try {
      const start = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      const id = String(start.structured.action_id);
      await alice.page.goto(`${app.url}/confirm/${id}`);
      await alice.page.getByTestId("confirmation-summary").waitFor();
      // The agent changes the order while the person is looking at the old summary.
      const advanced = await agent.call("advance_action", {
        action_id: id,
        version: Number(start.structured.version),
        patch: { items: [{ product_id: "prod_mug", quantity: 3 }] },
      });
      expect(Number(advanced.structured.version)).toBeGreaterThan(Number(start.structured.version));
      // The screen follows: the change is named and the old version cannot be approved.
      await alice.page.getByTestId("change-notice").waitFor({ timeout: 15_000 });
      expect(await alice.page.getByTestId("change-notice").textContent()).toContain("Nothing was approved.");
      await screenshot(alice.page, "confirm-stale");
      // Review the current version, then reject it with a reason.
      await alice.page.getByRole("button", { name: "Review the new version" }).click();
      await alice.page
        .locator(`[data-testid=confirmation-summary][data-version="${advanced.structured.version}"]`)
        .waitFor();
      await alice.page.getByLabel(/Reason/).fill("Too many mugs");
      await alice.page.getByRole("button", { name: "Reject" }).click();
      await alice.page.getByTestId("decision-result").waitFor();
      expect(await alice.page.getByTestId("agent-will-see").textContent()).toContain("Too many mugs");
      const confirm = await agent.call("confirm_action", {
        action_id: id,
        version: Number(advanced.structured.version),
        idempotency_key: idem("rejected"),
      });
      expect(confirm.structured).toMatchObject({
        outcome: "rejected",
        reason: "approval_rejected",
        approval: { status: "rejected", reason: "Too many mugs", decided_by: { name: "Alice" } },
      });
      expect(confirm.structured.message).toContain('Alice rejected this: "Too many mugs"');
      const next = confirm.structured.next_actions as { tool: string }[];
      expect(next.map((n) => n.tool)).toEqual(["advance_action"]);
    } finally {
      await agent.close();
    }
  }, 120_000);

  it("support works the recovery queue: an effect in unknown is verified, another is marked resolved, each audited", async () => {
    const alice = await person("alice@acme.test");
    const sam = await person("sam@acme.test");
    const agent = await connectAgent(app.url, agentKey("alice@acme.test"));
    /** An approved checkout whose payment commits at the legacy system but whose answer never arrives. */
    async function unknownCheckout() {
      const start = await agent.call("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      const id = String(start.structured.action_id);
      const version = Number(start.structured.version);
      const fault = await fetch(`${app.legacy.url}/admin/faults`, {
        method: "POST",
        headers: { "x-admin-key": app.legacy.adminKey, "content-type": "application/json" },
        body: JSON.stringify({
          match: "POST /v1/payments",
          mode: "commit_then_timeout",
          count: 1,
          latency_ms: 8000,
        }),
      });
      expect(fault.ok).toBe(true);
      // Her approval sends the payment into the fault; the agent's confirm finds that send.
      const decided = await pageFetch(alice.page, `/api/console/actions/${id}/decision`, {
        method: "POST",
        body: { decision: "approve", version },
      });
      expect(decided.status).toBe(200);
      expect(decided.text).toMatch(/"result":\{"outcome":"unknown"/);
      const confirmed = await agent.call("confirm_action", {
        action_id: id,
        version,
        idempotency_key: idem("unknown"),
      });
      expect(confirmed.structured).toMatchObject({ outcome: "unknown" });
      return id;
    }
    try {
      const first = await unknownCheckout();
      const second = await unknownCheckout();
      await sam.page.goto(`${app.url}/actions`);
      const queue = sam.page.getByTestId("recovery-queue");
      await queue.getByRole("link", { name: first }).waitFor({ timeout: 10_000 });
      await queue.getByRole("link", { name: second }).waitFor();
      await screenshot(sam.page, "recovery-queue");

      await queue.getByRole("link", { name: first }).click();
      await sam.page.waitForURL(`**/actions/${first}`);
      await sam.page.getByRole("button", { name: "Verify", exact: true }).click();
      await expect
        .poll(
          async () =>
            (await pageFetch(sam.page, `/api/console/actions/${first}`)).json?.action?.effect?.status,
          { timeout: 15_000 },
        )
        .toBe("applied");
      await sam.page.getByTestId("effect-ledger").filter({ hasText: "applied" }).waitFor();

      await sam.page.goto(`${app.url}/actions/${second}`);
      // Without a verify, marking it resolved needs a reason (audited).
      await sam.page.getByRole("button", { name: "Resolve without verifying…" }).click();
      await sam.page.getByLabel(/Reason/).fill("Payment found in the legacy admin by reference");
      await sam.page.getByRole("button", { name: "Mark resolved: happened" }).click();
      await expect
        .poll(
          async () =>
            (await pageFetch(sam.page, `/api/console/actions/${second}`)).json?.action?.effect?.status,
          { timeout: 15_000 },
        )
        .toBe("applied");
      await screenshot(sam.page, "recovery-resolved");
      // Members cannot work the queue; every step above is in the audit log as a console operation.
      expect(
        (await pageFetch(alice.page, `/api/console/actions/${second}/verify`, { method: "POST" })).status,
      ).toBe(403);
      const audit = (await pageFetch(sam.page, "/api/console/audit?face=console&limit=200")).json as {
        events: { operation: string; target: string | null }[];
      };
      const ops = audit.events.map((e) => `${e.operation} ${e.target}`);
      expect(ops).toContain(`action.verified capability:checkout`);
      expect(ops.some((o) => o.startsWith("action.recovery_resolved") && o.includes(second))).toBe(true);
    } finally {
      await agent.close();
    }
  }, 180_000);

  it("the connect route of a per-person system: signed in, to the authorization server with PKCE and a state; signed out, to sign-in", async () => {
    // A system where each person has their own account, added the way an admin imports one.
    const auth = "https://auth.notes.example.test";
    const document = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Team Notes", version: "1.0.0" },
      servers: [{ url: "https://notes.example.test/api" }],
      components: {
        securitySchemes: {
          notesOAuth: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: `${auth}/authorize`,
                tokenUrl: `${auth}/token`,
                scopes: { "notes:read": "read your notes" },
              },
            },
          },
        },
      },
      security: [{ notesOAuth: ["notes:read"] }],
      paths: {
        "/notes": {
          get: {
            operationId: "listNotes",
            summary: "List my notes",
            responses: { "200": { description: "notes" } },
          },
        },
      },
    });
    const db = createDb(app.databaseUrl);
    try {
      const imported = await importOpenApiConnector(
        db,
        cliActor("acme", "e2e"),
        {
          text: document,
          id: "teamnotes",
          baseUrl: "https://notes.example.test/api",
          readRoles: ["admin", "member"],
          secrets: {},
          self: { origins: [], ports: [] },
        },
        { apply: true },
      );
      if (!imported.ok) throw new Error(JSON.stringify(imported));
      const adam = await db.user.findFirstOrThrow({ where: { email: "adam@acme.test" } });
      const admin = {
        tenantId: "acme",
        userId: adam.id,
        email: adam.email,
        name: adam.name,
        sessionId: "e2e",
        tenantName: "Acme",
        role: "admin" as const,
      };
      const set = await updateConnectorSettings(db, admin, "teamnotes", {
        baseUrl: "https://notes.example.test/api",
        values: { oauth_client_id: "signpost-e2e" },
      });
      expect(set.ok).toBe(true);
      const alice = people.find((p) => p.email === "alice@acme.test") ?? (await as("alice@acme.test"));
      const cookie = (await alice.browser.context.cookies()).find((c) => c.name === "sp_session");
      // Through the app's own route file (app/connect/[connector]/route.ts), served by next start.
      const start = await fetch(`${app.url}/connect/teamnotes`, {
        headers: { cookie: `sp_session=${cookie?.value}` },
        redirect: "manual",
      });
      expect(start.status).toBe(303);
      const to = new URL(start.headers.get("location") ?? "");
      expect(`${to.origin}${to.pathname}`).toBe(`${auth}/authorize`);
      expect(to.searchParams.get("client_id")).toBe("signpost-e2e");
      expect(to.searchParams.get("response_type")).toBe("code");
      expect(to.searchParams.get("code_challenge_method")).toBe("S256");
      expect(to.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      expect(to.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
      expect(to.searchParams.get("redirect_uri")).toBe(`${app.url}/connect-callback`);
      // The state is kept only hashed, bound to Alice.
      const attempts = await db.connectAttempt.findMany({ where: { connector: "teamnotes" } });
      expect(attempts).toHaveLength(1);
      expect(JSON.stringify(attempts)).not.toContain(to.searchParams.get("state"));
      const aliceRow = await db.user.findFirstOrThrow({ where: { email: "alice@acme.test" } });
      expect(attempts[0]?.userId).toBe(aliceRow.id);
      // Signed out: to the console's sign-in, back to the same page after; nothing started.
      const anonymous = await fetch(`${app.url}/connect/teamnotes`, { redirect: "manual" });
      expect(anonymous.status).toBeGreaterThanOrEqual(300);
      expect(anonymous.status).toBeLessThan(400);
      expect(anonymous.headers.get("location")).toMatch(/\/sign-in\?next=%2Fconnect%2Fteamnotes$/);
      // The callback route answers a forged state with a refusal, not a connection.
      const forged = await fetch(`${app.url}/connect-callback?code=x&state=forged`, {
        headers: { cookie: `sp_session=${cookie?.value}` },
      });
      expect(forged.status).toBe(400);
      expect(await db.personConnection.count()).toBe(0);
      expect(await db.connectAttempt.count({ where: { connector: "teamnotes" } })).toBe(1);
    } finally {
      await db.$disconnect();
    }
  }, 60_000);
});
