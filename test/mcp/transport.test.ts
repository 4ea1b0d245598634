import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./mcp-world";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

/** Raw HTTP with full control of Host/Origin (fetch would set Host itself). */
function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }) {
  const target = new URL(url);
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...init.headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    if (init.body !== undefined) req.write(JSON.stringify(init.body));
    req.end();
  });
}

describe("MCP transport: identity, DNS rebinding, faces", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("answers a tool list without a key with 401 and a challenge that leads to OAuth (RFC 9728), no error code", async () => {
    const res = await raw(w.endpoint, { body: LIST });
    expect(res.status).toBe(401);
    const challenge = String(res.headers["www-authenticate"]);
    expect(challenge).toMatch(
      /^Bearer resource_metadata="http:\/\/localhost:3000\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    // The default faces' scopes (the script face is opt-in: ?faces=script asks for its scope).
    expect(challenge).toContain('scope="signpost:actions signpost:browse"');
    expect(challenge).not.toContain("error=");
  });

  it("refuses an unknown key and a revoked key with 401 invalid_token, even for the handshake", async () => {
    const unknown = await raw(w.endpoint, {
      headers: { authorization: "Bearer sp_nothing_here" },
      body: INIT,
    });
    expect(unknown.status).toBe(401);
    expect(String(unknown.headers["www-authenticate"])).toContain('error="invalid_token"');

    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "sam@acme.test" } },
    });
    await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: new Date() } });
    try {
      const revoked = await raw(w.endpoint, {
        headers: { authorization: `Bearer ${w.keys.sam}` },
        body: LIST,
      });
      expect(revoked.status).toBe(401);
      expect(String(revoked.headers["www-authenticate"])).toContain('error="invalid_token"');
    } finally {
      await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: null } });
    }
  });

  it("rejects a foreign Host or Origin (DNS rebinding) with 403 before looking at the key", async () => {
    const host = await raw(w.endpoint, {
      headers: { host: "evil.example.com", authorization: `Bearer ${w.keys.alice}` },
      body: INIT,
    });
    expect(host.status).toBe(403);
    const origin = await raw(w.endpoint, {
      headers: { origin: "http://evil.example.com", authorization: `Bearer ${w.keys.alice}` },
      body: INIT,
    });
    expect(origin.status).toBe(403);
    const ok = await raw(w.endpoint, {
      headers: { origin: w.url, authorization: `Bearer ${w.keys.alice}` },
      body: INIT,
    });
    expect(ok.status).toBe(200);
  });

  it("answers GET (no standalone stream in stateless mode) with 405", async () => {
    const res = await raw(w.endpoint, {
      method: "GET",
      headers: { authorization: `Bearer ${w.keys.alice}` },
    });
    expect(res.status).toBe(405);
  });

  it("answers a repeated tools/list from its cache with the same list, under the new request's id", async () => {
    const list = async (id: number | string) => {
      const res = await raw(w.endpoint, {
        headers: { authorization: `Bearer ${w.keys.alice}`, "mcp-protocol-version": "2025-11-25" },
        body: { ...LIST, id },
      });
      expect(res.status).toBe(200);
      const json = res.body.startsWith("{") ? res.body : (res.body.match(/^data: (.*)$/m)?.[1] ?? "");
      return JSON.parse(json) as { id: unknown; result: { tools: Array<{ name: string }> } };
    };
    const first = await list(7);
    const cached = await list("again-8");
    expect(cached.id).toBe("again-8");
    expect(cached.result).toEqual(first.result);
    expect(cached.result.tools.map((t) => t.name)).toContain("get_context");
  });

  it("answers a 2025-era call with one JSON body; a call that asks for progress still gets an SSE stream", async () => {
    const call = (meta?: Record<string, unknown>) =>
      raw(w.endpoint, {
        headers: { authorization: `Bearer ${w.keys.alice}`, "mcp-protocol-version": "2025-11-25" },
        body: {
          jsonrpc: "2.0",
          id: 11,
          method: "tools/call",
          params: {
            name: "search_capabilities",
            arguments: { query: "refund my order" },
            ...(meta ? { _meta: meta } : {}),
          },
        },
      });
    const plain = await call();
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toMatch(/^application\/json/);
    const answer = JSON.parse(plain.body) as {
      id: unknown;
      result: { structuredContent: { outcome: string } };
    };
    expect(answer.id).toBe(11);
    expect(answer.result.structuredContent.outcome).toBe("applied");

    const streamed = await call({ progressToken: "p-1" });
    expect(streamed.status).toBe(200);
    expect(streamed.headers["content-type"]).toMatch(/^text\/event-stream/);
    const data = streamed.body.match(/^data: (\{.*"id":11.*)$/m)?.[1] ?? "";
    expect((JSON.parse(data) as typeof answer).result.structuredContent.outcome).toBe("applied");
  });

  it("leaves a body that is not JSON to the SDK's own answers: 400 parse error, 415 for another media type", async () => {
    const send = (contentType: string, body: string) =>
      fetch(w.endpoint, {
        method: "POST",
        headers: {
          authorization: `Bearer ${w.keys.alice}`,
          "content-type": contentType,
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
        },
        body,
      });
    const broken = await send("application/json", '{"jsonrpc":"2.0","id":1,');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const empty = await send("application/json", "");
    expect(empty.status).toBe(400);
    const plain = await send("text/plain", JSON.stringify(LIST));
    expect(plain.status).toBe(415);
  });

  it("lets the handshake through without a key but nothing else", async () => {
    const res = await raw(w.endpoint, { body: INIT });
    expect(res.status).toBe(200);
    expect(res.body).toContain('"name":"signpost"');
    expect(res.body).not.toContain("start_action");
  });

  it("serves the actions and browse faces by default, all with ?faces=all, a subset with ?faces=", async () => {
    const byDefault = await w.connect(w.keys.alice);
    const defaults = (await byDefault.listTools()).tools.map((t) => t.name);
    // The script face is opt-in.
    expect(defaults).not.toContain("run_script");
    expect(defaults).toEqual(expect.arrayContaining(["start_action", "navigate"]));
    const all = await w.connect(w.keys.alice, { faces: "all" });
    const names = (await all.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        "advance_action",
        "approval_status",
        "cancel_action",
        "confirm_action",
        "get_context",
        "navigate",
        "recover_action",
        "run_script",
        "search",
        "search_capabilities",
        "start_action",
        "submit",
        "verify_action",
      ].sort(),
    );
    const actions = await w.connect(w.keys.alice, { faces: "actions" });
    expect((await actions.listTools()).tools.map((t) => t.name)).not.toContain("navigate");
    const browse = await w.connect(w.keys.alice, { faces: "browse" });
    expect((await browse.listTools()).tools.map((t) => t.name).sort()).toEqual([
      "navigate",
      "search",
      "submit",
    ]);
    const bad = await raw(`${w.endpoint}?faces=everything`, {
      headers: { authorization: `Bearer ${w.keys.alice}` },
      body: LIST,
    });
    expect(bad.status).toBe(400);
  });

  it("works for 2025-era clients too (stateless legacy serving)", async () => {
    const legacy = await w.connect(w.keys.alice, { mode: "legacy", faces: "actions" });
    const tools = (await legacy.listTools()).tools;
    expect(tools.map((t) => t.name)).toContain("start_action");
  });

  it("declares strict, described input schemas with no identity fields, page output schemas and annotations", async () => {
    const client = await w.connect(w.keys.alice, { faces: "all" });
    const tools = (await client.listTools()).tools;
    const actionTools = ["search_capabilities", "start_action", "get_context", "advance_action"];
    actionTools.push("confirm_action", "verify_action", "recover_action", "cancel_action");
    // run_script answers an open outcome too (its result is whatever the script returned).
    actionTools.push("run_script");
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      // The action tools' (and run_script's) outcome is an open object: a listed schema would only repeat
      // outcome/message/next_actions on every tools/list. Browse pages keep theirs.
      if (actionTools.includes(tool.name)) expect(tool.outputSchema, tool.name).toBeUndefined();
      else expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(20);
      expect(JSON.stringify(tool.inputSchema)).not.toMatch(/tenant_id|user_id|"role"|agent_id/);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search_capabilities?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get_context?.annotations?.readOnlyHint).toBe(true);
    expect(byName.confirm_action?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.approval_status?._meta).toMatchObject({
      ui: { visibility: ["app"], resourceUri: "ui://signpost/confirm" },
    });
    expect(byName.approval_status?.annotations?.readOnlyHint).toBe(true);
    expect(byName.decide_approval).toBeUndefined();
  });
});
