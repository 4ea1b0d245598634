import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium, launchChromium } from "../e2e/helpers/chromium";
import { createWorld, type World } from "../gateway/gateway-world";
import {
  connectWithOAuth,
  consoleSessionFor,
  MemoryOAuthProvider,
  SESSION_COOKIE_NAME,
  startHostSide,
  startSignpostInstance,
} from "./oauth-world";

// MCP authorization (2026-07-28) end to end: the SDK v2 client's own OAuth support discovers
// Signpost's authorization server from /mcp's 401, identifies itself by a Client ID Metadata
// Document served on https by the test, a person signed in to the console allows it in real
// Chromium, and the token acts as that person on /mcp.
const run = describeInChromium("OAuth e2e");

run("an MCP host connects by OAuth, as the person who allowed it", () => {
  let world: World;
  let signpost: Awaited<ReturnType<typeof startSignpostInstance>>;
  let host: Awaited<ReturnType<typeof startHostSide>>;

  beforeAll(async () => {
    world = await createWorld("sqlite");
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
    process.env.SIGNPOST_EGRESS_CA_FILE = host.caFile;
    signpost = await startSignpostInstance(world.db);
  }, 60_000);
  afterAll(async () => {
    await signpost?.close();
    await host?.close();
    await world?.close();
  });

  it("answers /mcp without a credential with 401 naming the Protected Resource Metadata, which names the authorization server", async () => {
    const res = await fetch(`${signpost.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(
      `resource_metadata="${signpost.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    // The default faces' scopes: the script face is opt-in (?faces=script asks for its scope).
    expect(challenge).toMatch(/scope="signpost:actions signpost:browse"/);

    const prm = await (await fetch(`${signpost.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({
      resource: `${signpost.url}/mcp`,
      authorization_servers: [`${signpost.url}/oauth`],
    });

    const as = await (await fetch(`${signpost.url}/.well-known/oauth-authorization-server/oauth`)).json();
    expect(as.issuer).toBe(`${signpost.url}/oauth`);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBeUndefined();
  });

  it("discovery, CIMD, PKCE, consent in Chromium by a signed-in person, then tools/list and a checkout as that person", async () => {
    const provider = new MemoryOAuthProvider(host.clientId, host.redirectUri);
    const first = await connectWithOAuth(`${signpost.url}/mcp`, provider);
    expect(first.unauthorized).toBeDefined();
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl?.href.startsWith(`${signpost.url}/oauth/auth?`)).toBe(true);
    expect(authorizationUrl?.searchParams.get("client_id")).toBe(host.clientId);
    expect(authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl?.searchParams.get("resource")).toBe(`${signpost.url}/mcp`);

    const browser = await launchChromium();
    try {
      const session = await consoleSessionFor(world.db, "alice@acme.test");
      await browser.context.addCookies([
        { name: SESSION_COOKIE_NAME, value: session, url: signpost.url, httpOnly: true, sameSite: "Lax" },
      ]);
      const page = await browser.context.newPage();
      await page.goto(String(authorizationUrl));
      await page.getByRole("heading", { name: "Allow Test Host?" }).waitFor();
      expect(await page.getByTestId("app-domain").textContent()).toBe(new URL(host.clientId).host);
      expect(await page.getByTestId("acting-as").textContent()).toContain("alice@acme.test");
      expect(await page.getByTestId("unverified").count()).toBe(0);
      await page.getByRole("button", { name: "Allow" }).click();
      await page.waitForURL((url) => url.href.startsWith(host.redirectUri));
    } finally {
      await browser.close();
    }
    const callback = host.codes.at(-1);
    expect(callback?.code).toBeTruthy();
    await first.transport.finishAuth(callback?.params ?? new URLSearchParams());
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();

    const connected = await connectWithOAuth(`${signpost.url}/mcp`, provider);
    expect(connected.unauthorized).toBeUndefined();
    expect(connected.tools?.map((t) => t.name)).toContain("start_action");
    const client = connected.client;
    if (!client) throw new Error("not connected");
    const started = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "checkout",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    });
    const actionId = String((started.structuredContent as { action_id?: string }).action_id);
    const action = await world.db.action.findUniqueOrThrow({ where: { id: actionId } });
    const app = await world.db.agent.findFirstOrThrow({ where: { oauthClientId: host.clientId } });
    expect(action.userId).toBe(world.person.alice.userId);
    expect(action.tenantId).toBe("acme");
    expect(action.agentId).toBe(app.id);
    expect(app.userId).toBe(world.person.alice.userId);
    expect(app.lastUsedAt).not.toBeNull();
    await client.close();
  }, 120_000);
});
