import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

// Issue 22: work a call left behind after its answer was paid for by every call, later. A
// connector read's `AbortSignal.timeout` fired 5 s after the read had finished and built a
// DOMException with its stack trace; a 2026-07-28 exchange was closed a microtask after its
// answer, while the SDK still held the finished handler's abort controller, so closing aborted it
// (an Event dispatched for nothing, the close error's stack taken). Over real MCP clients, in both
// protocol eras: an answered read leaves no deadline armed and aborts no signal.

type Armed = { delay: number; timer: NodeJS.Timeout };

describe("an answered read leaves nothing behind", () => {
  let w: McpWorld;

  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => {
    await w.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const mode of ["legacy", "auto"] as const) {
    it(`${mode === "auto" ? "2026-07-28" : "2025-11-25"}: no deadline outlives its connector read, no signal is aborted`, async () => {
      const client = await w.connect(w.keys.alice, { mode });
      // Warm: the first call builds what later ones reuse (the customer, the payment's label).
      expect(
        sc(
          await client.callTool({
            name: "get_context",
            arguments: { entity: "order", entity_id: "ord_paid" },
          }),
        ).outcome,
      ).toBe("applied");

      const timeouts = vi.spyOn(AbortSignal, "timeout");
      const armed: Armed[] = [];
      const realSetTimeout = globalThis.setTimeout;
      vi.spyOn(globalThis, "setTimeout").mockImplementation(((
        fn: () => void,
        delay?: number,
        ...rest: unknown[]
      ) => {
        const timer = realSetTimeout(fn, delay, ...rest) as unknown as NodeJS.Timeout;
        // A connector request's deadline (server/egress/request-deadline.ts); undici's own
        // keep-alive timers and the SDK's are not about a read's answer.
        if (new Error().stack?.includes("request-deadline")) armed.push({ delay: delay ?? 0, timer });
        return timer;
      }) as typeof setTimeout);
      const aborted: unknown[] = [];
      const realAbort = AbortController.prototype.abort;
      vi.spyOn(AbortController.prototype, "abort").mockImplementation(function (
        this: AbortController,
        reason?: unknown,
      ) {
        aborted.push(reason);
        return realAbort.call(this, reason);
      });

      for (let i = 0; i < 3; i++) {
        const answer = await client.callTool({
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_paid" },
        });
        expect(sc(answer).outcome).toBe("applied");
        const read = await client.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } });
        expect(JSON.stringify(read)).toContain("ord_paid");
      }
      // The exchanges close a turn after their answers: let them.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));

      // Each connector read had a deadline (the legacy service was asked), and each was cleared.
      expect(timeouts).not.toHaveBeenCalled();
      expect(armed.length).toBeGreaterThan(0);
      expect(armed.filter((a) => !(a.timer as unknown as { _destroyed?: boolean })._destroyed)).toEqual([]);
      // Nothing that answered was aborted afterwards.
      expect(aborted).toEqual([]);
    });
  }
});
