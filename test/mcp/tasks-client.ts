import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";

export const MODERN_VERSION = "2026-07-28";

/**
 * What an MCP host sends to /mcp for one JSON-RPC request with the standard headers of
 * 2026-07-28 (Mcp-Method, and Mcp-Name = params.taskId on tasks/* as the Tasks extension asks).
 * `endpoints` in turn: polls of one task reach different instances, as behind a balancer.
 */
export function rawDispatchTo(
  endpoints: string[],
  authorization: string,
  pollIntervalMs?: number,
): RawClientDispatch & {
  sent: string[];
} {
  let n = 0;
  const sent: string[] = [];
  const dispatch = async (request: unknown) => {
    const message = request as { method: string; params?: { taskId?: unknown; name?: unknown } };
    const name = message.params?.taskId ?? message.params?.name;
    const endpoint = endpoints[n % endpoints.length] as string;
    n += 1;
    sent.push(`${message.method} → ${endpoint}`);
    const res = await fetch(endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization,
        "mcp-protocol-version": MODERN_VERSION,
        "mcp-method": message.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: n, ...message }),
    });
    const raw = await res.text();
    // A JSON answer, or the one event of an SSE answer.
    const json = (res.headers.get("content-type") ?? "").includes("text/event-stream")
      ? raw
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5))
          .join("")
      : raw;
    const body = JSON.parse(json) as { result?: unknown; error?: { code: number; message: string } };
    if (body.error) return { kind: "error" as const, error: body.error };
    // The host's own pace: the requester follows the task's suggested interval, so a host that
    // polls at another pace reads it as that (the server's suggestion is asserted unchanged in
    // test/mcp/approval-tasks.test.ts, from an answer that does not pass through here).
    const result = body.result as Record<string, unknown> | undefined;
    if (pollIntervalMs !== undefined && typeof result?.pollIntervalMs === "number")
      result.pollIntervalMs = pollIntervalMs;
    return { kind: "result" as const, result: body.result as never };
  };
  return Object.assign(dispatch, { sent });
}

/**
 * A host that can wait on tasks: the SDK v2 client (2026-07-28 negotiated through
 * server/discover) with the official Tasks requester (`@modelcontextprotocol/ext-tasks`) on top.
 * The SDK 2.4.0 client's own codec refuses `resultType: "task"`, so, as ext-tasks documents,
 * tools/call and tasks/* go through the host's raw dispatch.
 */
export async function connectTaskHost(
  endpoints: string[],
  authorization: string,
  /**
   * How often this host polls a task. Hosts pick their pace; the server suggests 2 s (people
   * take seconds to minutes), which here would only be the test waiting: 250 ms by default.
   */
  pollIntervalMs = 250,
) {
  const client = new Client(
    { name: "tasks-host", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoints[0] as string), {
      requestInit: { headers: { Authorization: authorization } },
    }),
  );
  const rawDispatch = rawDispatchTo(endpoints, authorization, pollIntervalMs);
  const session = createTaskSessionFromClient(client, {
    endpointId: "signpost-test",
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: MODERN_VERSION,
      clientInfo: { name: "tasks-host", version: "1.0.0" },
      clientCapabilities: {},
    },
  });
  return {
    client,
    session,
    rawDispatch,
    async close() {
      await session.close();
      await client.close();
    },
  };
}
