import type { McpServer } from "@modelcontextprotocol/server";

const names = new WeakMap<McpServer, Set<string>>();

/**
 * Records the name of every tool registered on `server` from now on, so that the HTTP face can
 * tell a call the SDK will refuse (a tool that is not there) from one a handler will answer.
 */
export function trackToolNames(server: McpServer): void {
  const registered = new Set<string>();
  names.set(server, registered);
  const register = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  (server as { registerTool: unknown }).registerTool = (name: string, ...rest: unknown[]) => {
    registered.add(name);
    return register(name, ...rest);
  };
}

/** The tools registered on `server` since `trackToolNames`; empty when it was never tracked. */
export function registeredToolNames(server: McpServer): ReadonlySet<string> {
  return names.get(server) ?? new Set();
}
