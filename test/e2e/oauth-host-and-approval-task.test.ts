import { afterAll, beforeAll, expect, it } from "vitest";
import { connectTaskHost } from "../mcp/tasks-client";
import { connectWithOAuth, MemoryOAuthProvider, startHostSide } from "../oauth/oauth-world";
import { type Browser, describeInChromium, launchChromium, screenshot } from "./helpers/chromium";
import { sidewaysOverflow, VIEWPORTS } from "./helpers/page-checks";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

// The whole way a person meets Signpost from an MCP host, against the app as `npm start` serves
// it: the SDK v2 client's OAuth discovers the authorization server from /mcp's 401 and names
// itself by a Client ID Metadata Document the test serves on localhost; Alice signs in with her
// password and clicks Allow in real Chromium; the token lists tools and starts a checkout as
// her. The host waits on the approval as an MCP task; Alice opens the approval link on her
// phone, signs in, lands on the decision and approves; the task completes verified.
const run = describeInChromium("OAuth host e2e");

run("an OAuth MCP host, a person who signs in and allows, and an approval the host waits on", () => {
  let app: SignpostApp;
  let host: Awaited<ReturnType<typeof startHostSide>>;
  const browsers: Browser[] = [];

  beforeAll(async () => {
    host = await startHostSide((clientId, redirectUri) => ({
      client_id: clientId,
      client_name: "Test Host",
      client_uri: new URL("/", clientId).href,
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    }));
    // The host's document is on this machine over https with its own certificate: the
    // operator's egress allowance (set by startHostSide) and CA file let Signpost fetch it.
    app = await startSignpostApp({ ownPublicUrl: true, env: { SIGNPOST_EGRESS_CA_FILE: host.caFile } });
  }, 360_000);
  afterAll(async () => {
    await Promise.allSettled(browsers.map((b) => b.close()));
    await app?.stop();
    await host?.close();
  }, 60_000);

  it("discovery from the 401, sign-in and Allow in Chromium, tools/list and a checkout that waits as a task until Alice approves on her phone", async () => {
    const endpoint = `${app.url}/mcp`;
    const provider = new MemoryOAuthProvider(host.clientId, host.redirectUri);
    const first = await connectWithOAuth(endpoint, provider);
    expect(first.unauthorized).toBeDefined();
    const authorizationUrl = String(provider.authorizationUrl);
    expect(authorizationUrl.startsWith(`${app.url}/oauth/auth?`)).toBe(true);

    // Alice is not signed in: the consent page sends her to the console's sign-in and back.
    const desktop = await launchChromium({ viewport: VIEWPORTS.desktop });
    browsers.push(desktop);
    const page = await desktop.context.newPage();
    await page.goto(authorizationUrl);
    await page.waitForURL(/\/sign-in\?next=%2Foauth%2Fconsent%2F/);
    await page.getByLabel("Email").fill("alice@acme.test");
    await page.getByLabel("Password").fill(app.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Allow Test Host?" }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("acting-as").textContent()).toContain("alice@acme.test");
    await screenshot(page, "oauth-consent-desktop");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(host.redirectUri));
    const callback = host.codes.at(-1);
    expect(callback?.code).toBeTruthy();
    await first.transport.finishAuth(callback?.params ?? new URLSearchParams());
    const token = provider.saved?.access_token;
    expect(token).toBeTruthy();

    const connected = await connectWithOAuth(endpoint, provider);
    expect(connected.tools?.map((t) => t.name)).toEqual(
      expect.arrayContaining(["start_action", "confirm_action"]),
    );
    await connected.client?.close();

    // The host waits on the approval: a checkout as Alice answers with a task.
    const tasks = await connectTaskHost([endpoint], `Bearer ${token}`);
    try {
      const execution = await tasks.session.callTool("start_action", {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      });
      if (execution.kind !== "task") throw new Error("expected a task");
      const view = await tasks.session.task(execution.handle.taskId).snapshot();
      expect(view.status).toBe("working");
      const link = /(http\S+\/confirm\/[\w-]+)/.exec(view.statusMessage ?? "")?.[1];
      expect(link?.startsWith(`${app.url}/confirm/`)).toBe(true);
      const settled = execution.settle();

      // Signed in on the desktop: the link opens the decision, no sign-in in between.
      await page.goto(String(link));
      await page.getByTestId("confirmation-summary").waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).pathname).toBe(new URL(String(link)).pathname);

      // On her phone she is not signed in yet: sign-in, then straight to the decision.
      const phone = await launchChromium({ viewport: VIEWPORTS.phone, phone: true });
      browsers.push(phone);
      const mobile = await phone.context.newPage();
      await mobile.goto(String(link));
      await mobile.waitForURL(/\/sign-in\?next=%2Fconfirm%2F/);
      await mobile.getByLabel("Email").fill("alice@acme.test");
      await mobile.getByLabel("Password").fill(app.password);
      await mobile.getByRole("button", { name: "Sign in" }).tap();
      const summary = mobile.getByTestId("confirmation-summary");
      await summary.waitFor({ timeout: 20_000 });
      expect(new URL(mobile.url()).pathname).toBe(new URL(String(link)).pathname);
      const widths = await sidewaysOverflow(mobile);
      expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
      // Opened again while signed in: the decision at once.
      await mobile.goto(String(link));
      await summary.waitFor();
      expect(new URL(mobile.url()).pathname).toBe(new URL(String(link)).pathname);
      await screenshot(mobile, "oauth-task-approval-phone");
      await mobile.getByRole("button", { name: /^Pay \$\d/ }).tap();
      await mobile.getByTestId("decided-by").waitFor();

      const { outcome } = await settled;
      if (outcome.status !== "completed") throw new Error(`task ${outcome.status}`);
      const result = outcome.result as { structuredContent?: Record<string, unknown> };
      expect(result.structuredContent).toMatchObject({
        outcome: "applied",
        status: "completed",
        verification: expect.objectContaining({ amount: expect.any(Number) }),
      });
    } finally {
      await tasks.close();
    }
  }, 240_000);
});
