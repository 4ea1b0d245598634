import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { describeEachProvider } from "../helpers/database";
import { mugCheckout } from "../helpers/mug-checkout";
import { handleNode } from "../helpers/serve-route";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";
import { connectTaskHost, MODERN_VERSION } from "./tasks-client";

// Approvals a host can wait on (MCP Tasks extension, io.modelcontextprotocol/tasks, 2026-07-28):
// a real SDK v2 client with the official Tasks requester polls tasks/get while a person decides;
// the polls alternate between two Signpost instances on one database (SQLite, and PostgreSQL
// as several instances run in production).

const CHECKOUT = mugCheckout(2);

async function balance(w: McpWorld): Promise<number> {
  const res = await fetch(`${w.legacy.url}/v1/customers/cus_alice`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  return ((await res.json()) as { balance: number }).balance;
}

const DECLARED = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** One tasks/get by hand, with the 2026-07-28 headers and the given client capabilities. */
async function taskGet(endpoint: string, key: string, taskId: string, capabilities: Record<string, unknown>) {
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${key}`,
      "mcp-protocol-version": MODERN_VERSION,
      "mcp-method": "tasks/get",
      "mcp-name": taskId,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tasks/get",
      params: {
        taskId,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
          "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  return JSON.parse((await res.text()).replace(/^[\s\S]*?data:\s*/, "")) as {
    result?: Record<string, unknown>;
    error?: Record<string, unknown>;
  };
}

/** Resolves once the task has been polled at least `times` times while still working. */
function pollsSeen(times: number) {
  let seen = 0;
  let done: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    done = resolve;
  });
  return {
    reached,
    onEvent(event: { type: string; task?: { status: string } }) {
      if (event.type === "task" && event.task?.status === "working" && ++seen >= times) done();
    },
  };
}

describeEachProvider("approvals a host can wait on (MCP Tasks extension) on %s", (provider) => {
  let w: McpWorld;
  let second: { endpoint: string; close(): Promise<void> };

  beforeAll(async () => {
    w = await createMcpWorld(provider);
    // A second instance on the same database, as behind a load balancer.
    const mcp = createSignpostMcp({ db: w.db, publicUrl: "http://localhost:3000" });
    const server = createServer((req, res) => void handleNode(mcp.handle, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    second = {
      endpoint: `http://127.0.0.1:${port}/mcp`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await w?.close();
  });
  beforeEach(async () => w.legacy.reset());

  it("names the extension in server/discover; a client that does not declare it gets today's answers", async () => {
    const client = await w.connect(w.keys.alice);
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ "io.modelcontextprotocol/tasks": {} });
    const started = sc(await client.callTool({ name: "start_action", arguments: CHECKOUT }));
    expect(started).toMatchObject({ outcome: "applied", requires_confirmation: true });
    const confirmed = await client.callTool({
      name: "confirm_action",
      arguments: { action_id: started.action_id, version: started.version, idempotency_key: "no-tasks-1" },
    });
    expect(sc(confirmed)).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    expect((confirmed as { resultType?: string }).resultType).not.toBe("task");
    expect(await w.db.mcpTask.count()).toBe(0);
  });

  it("a start that stops at confirmation is a task; the person approves; it completes applied and verified, polled on two instances", async () => {
    const host = await connectTaskHost([w.endpoint, second.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const before = await balance(w);
      const execution = await host.session.callTool("start_action", CHECKOUT);
      expect(execution.kind).toBe("task");
      if (execution.kind !== "task") throw new Error("no task");
      const row = await w.db.mcpTask.findUniqueOrThrow({ where: { id: execution.handle.taskId } });
      expect(row).toMatchObject({ status: "working", tool: "start_action", agentId: w.agent.alice.agentId });
      // The approval link is in the status message a host may show the person.
      expect(row.statusMessage).toContain(`http://localhost:3000/confirm/${row.actionId}`);
      expect(row.id).toMatch(/^[\w-]{43}$/);

      const polls = pollsSeen(2);
      const settled = execution.settle({ onEvent: polls.onEvent });
      await polls.reached;
      // Still waiting: nothing was charged while the person had not decided.
      expect(await balance(w)).toBe(before);
      const decided = await w.gw.decideApproval(w.person.alice, {
        action_id: row.actionId,
        version: row.version,
        decision: "approve",
      });
      expect(decided.outcome).toBe("applied");

      const { outcome } = await settled;
      expect(outcome.status).toBe("completed");
      if (outcome.status !== "completed") throw new Error(outcome.status);
      const result = outcome.result as { structuredContent?: Record<string, unknown>; content?: unknown[] };
      expect(result.structuredContent).toMatchObject({
        outcome: "applied",
        status: "completed",
        verification: expect.objectContaining({ amount: 4100 }),
        next_actions: [],
      });
      expect(result.content?.length).toBeGreaterThan(0);
      expect(await balance(w)).toBe(before - 4100);
      const done = await w.db.mcpTask.findUniqueOrThrow({ where: { id: row.id } });
      expect(done.status).toBe("completed");
      // Polls reached both instances. The approval ran the confirm (as the agent's, on the
      // person's click); the task's confirm found it done: one effect.
      const polled = host.rawDispatch.sent.filter((s) => s.startsWith("tasks/get"));
      expect(polled.some((s) => s.endsWith(w.endpoint))).toBe(true);
      expect(polled.some((s) => s.endsWith(second.endpoint))).toBe(true);
      const confirms = await w.db.auditEvent.findMany({
        where: { actionId: row.actionId, operation: "action.confirmed" },
        orderBy: { seq: "asc" },
      });
      // Which of the two is numbered first is a race the person's click and the poll on the
      // other instance run (the poll may find the approval while the click's confirm is in
      // flight, and answer its result): both are audited, and there is one effect.
      expect(confirms.map((c) => [c.face, c.agentId]).sort()).toEqual([
        ["actions", w.agent.alice.agentId],
        ["console", w.agent.alice.agentId],
      ]);
      expect(await w.db.effect.count({ where: { actionId: row.actionId } })).toBe(1);
    } finally {
      await host.close();
    }
  }, 60_000);

  it("a confirm_action awaiting approval is a task; a rejection completes it with the person's reason", async () => {
    const plain = await w.connect(w.keys.alice);
    const started = sc(await plain.callTool({ name: "start_action", arguments: CHECKOUT }));
    const host = await connectTaskHost([second.endpoint, w.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const execution = await host.session.callTool("confirm_action", {
        action_id: String(started.action_id),
        version: Number(started.version),
        idempotency_key: "tasks-reject-1",
      });
      expect(execution.kind).toBe("task");
      const polls = pollsSeen(1);
      const settled = execution.settle({ onEvent: polls.onEvent });
      await polls.reached;
      await w.gw.decideApproval(w.person.alice, {
        action_id: String(started.action_id),
        version: Number(started.version),
        decision: "reject",
        reason: "Too many mugs",
      });
      const { outcome } = await settled;
      if (outcome.status !== "completed") throw new Error(outcome.status);
      const result = outcome.result as { structuredContent?: Record<string, unknown> };
      expect(result.structuredContent).toMatchObject({ outcome: "rejected", reason: "approval_rejected" });
      expect(String(result.structuredContent?.message)).toContain("Too many mugs");
    } finally {
      await host.close();
    }
  }, 60_000);

  it("an approval that expires completes the task with the expiry (the person is asked again)", async () => {
    const plain = await w.connect(w.keys.alice);
    const started = sc(await plain.callTool({ name: "start_action", arguments: CHECKOUT }));
    const host = await connectTaskHost([w.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const execution = await host.session.callTool("confirm_action", {
        action_id: String(started.action_id),
        version: Number(started.version),
        idempotency_key: "tasks-expire-1",
      });
      expect(execution.kind).toBe("task");
      const polls = pollsSeen(1);
      const settled = execution.settle({ onEvent: polls.onEvent });
      await polls.reached;
      await w.db.approval.updateMany({
        where: { actionId: String(started.action_id) },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      const { outcome } = await settled;
      if (outcome.status !== "completed") throw new Error(outcome.status);
      const result = outcome.result as { structuredContent?: Record<string, unknown> };
      expect(result.structuredContent).toMatchObject({ outcome: "rejected", reason: "approval_expired" });
      const action = await w.db.action.findUniqueOrThrow({ where: { id: String(started.action_id) } });
      expect(action).toMatchObject({ status: "awaiting_approval", version: Number(started.version) + 1 });
    } finally {
      await host.close();
    }
  }, 60_000);

  it("tasks/cancel cancels the action; nothing is charged", async () => {
    const before = await balance(w);
    const host = await connectTaskHost([w.endpoint, second.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const execution = await host.session.callTool("start_action", CHECKOUT);
      if (execution.kind !== "task") throw new Error("no task");
      const taskId = execution.handle.taskId;
      await execution.cancel();
      const row = await w.db.mcpTask.findUniqueOrThrow({ where: { id: taskId } });
      expect(row.status).toBe("cancelled");
      const action = await w.db.action.findUniqueOrThrow({ where: { id: row.actionId } });
      expect(action.status).toBe("cancelled");
      const view = await host.session.task(taskId).snapshot();
      expect(view.status).toBe("cancelled");
      // An approval given after the cancel changes nothing.
      const late = await w.gw.decideApproval(w.person.alice, {
        action_id: row.actionId,
        version: row.version,
        decision: "approve",
      });
      expect(late.outcome).not.toBe("applied");
      expect(await balance(w)).toBe(before);
    } finally {
      await host.close();
    }
  }, 60_000);

  it("a task is its agent's alone, and tasks/* need the extension declared", async () => {
    const host = await connectTaskHost([w.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const execution = await host.session.callTool("start_action", CHECKOUT);
      if (execution.kind !== "task") throw new Error("no task");
      const taskId = execution.handle.taskId;
      const post = (key: string, meta: Record<string, unknown>) => taskGet(w.endpoint, key, taskId, meta);
      const declared = DECLARED;
      // Adam (same tenant, another agent) and Gina (another tenant): not found, as a made-up id.
      for (const key of [w.keys.adam, w.keys.gina])
        expect((await post(key, declared)).error).toMatchObject({
          code: -32602,
          message: expect.stringContaining("not found"),
        });
      expect((await post(w.keys.alice, {})).error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
      });
      expect((await post(w.keys.alice, declared)).result).toMatchObject({
        resultType: "complete",
        taskId,
        status: "working",
        pollIntervalMs: 2000,
      });
      await execution.cancel();
    } finally {
      await host.close();
    }
  }, 60_000);

  it("polls racing on two instances after the approval confirm once: one charge, one confirm, every answer working or the same result", async () => {
    const before = await balance(w);
    const host = await connectTaskHost([w.endpoint], `Bearer ${w.keys.alice}`);
    try {
      const execution = await host.session.callTool("start_action", CHECKOUT);
      if (execution.kind !== "task") throw new Error("no task");
      const row = await w.db.mcpTask.findUniqueOrThrow({ where: { id: execution.handle.taskId } });
      await w.gw.decideApproval(w.person.alice, {
        action_id: row.actionId,
        version: row.version,
        decision: "approve",
      });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          taskGet(i % 2 ? second.endpoint : w.endpoint, w.keys.alice, row.id, DECLARED),
        ),
      );
      for (const answer of answers) expect(["working", "completed"]).toContain(answer.result?.status);
      const after = await taskGet(w.endpoint, w.keys.alice, row.id, DECLARED);
      expect(after.result).toMatchObject({
        status: "completed",
        result: { resultType: "complete", structuredContent: { outcome: "applied" } },
      });
      for (const answer of answers.filter((a) => a.result?.status === "completed"))
        expect(answer.result?.result).toEqual(after.result?.result);
      expect(await balance(w)).toBe(before - 4100);
      // The approval's own confirm, then the one task confirm that found it done: one effect.
      const confirms = await w.db.auditEvent.count({
        where: { actionId: row.actionId, operation: "action.confirmed" },
      });
      expect(confirms).toBe(2);
      expect(await w.db.effect.count({ where: { actionId: row.actionId } })).toBe(1);
      await execution.detach();
    } finally {
      await host.close();
    }
  }, 60_000);
});
