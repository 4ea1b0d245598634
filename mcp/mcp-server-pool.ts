import type { McpServer } from "@modelcontextprotocol/server";

/** Idle servers kept per shape: enough for the calls one instance answers at once. */
const MAX_IDLE_PER_SHAPE = 32;

export interface McpServerPool {
  /** An idle server of this shape, or one `build` makes: the caller's alone until it gives it back. */
  take(shape: string, build: () => McpServer): McpServer;
  /**
   * A server `take` gave, whose exchange is over (every answer sent): another request may be
   * answered on it. A server given twice, or not from this pool, is ignored.
   */
  give(server: McpServer): void;
  /** Servers built so far (a test tells reuse from a build per request). */
  built(): number;
}

/**
 * Servers kept between requests, by shape (the faces they serve): building one (its tools,
 * their schemas, the SDK's handlers) was ~4% of serve's CPU per tool call. A server holds no
 * caller: its handlers read the caller from each request (SignpostMcpDeps.callerOf), and one
 * server answers one exchange at a time. Only servers that never handled the handshake are given
 * back (see ServerScope.reused): a server that did would keep that client's capabilities.
 */
export function createMcpServerPool(): McpServerPool {
  const idle = new Map<string, McpServer[]>();
  const shapes = new WeakMap<McpServer, string>();
  const resting = new WeakSet<McpServer>();
  let built = 0;
  return {
    take(shape, build) {
      const server = idle.get(shape)?.pop();
      if (server) {
        resting.delete(server);
        return server;
      }
      const made = build();
      built++;
      shapes.set(made, shape);
      return made;
    },
    give(server) {
      const shape = shapes.get(server);
      if (shape === undefined || resting.has(server)) return;
      const list = idle.get(shape) ?? [];
      idle.set(shape, list);
      if (list.length >= MAX_IDLE_PER_SHAPE) return;
      resting.add(server);
      list.push(server);
    },
    built: () => built,
  };
}
