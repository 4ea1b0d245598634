import { McpServer, type ServerContext } from "@modelcontextprotocol/server";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { deliverAgentNews } from "./agent-news";
import { registerApprovalTaskHandlers, TASKS_EXTENSION } from "./approval-tasks";
import type { Face } from "./faces";
import type { GatewayPort } from "./gateway-port";
import { leanToolCallCapabilities, leanToolCalls } from "./lean-tool-calls";
import { modernServerOptions } from "./modern-json-leg";
import { observeToolCalls, type ToolCallObserver } from "./observe-tool-calls";
import { questionRead } from "./question-read";
import { registerActionTools, toolResult } from "./register-action-tools";
import { registerBrowseTools } from "./register-browse-tools";
import { registerConfirmApp } from "./register-confirm-app";
import { registerScriptTools, type ScriptFaceBackend } from "./register-script-tools";
import { trackToolNames } from "./registered-tool-names";
import type { SignpostRequestStateCodec } from "./request-state";

/** Who one request's calls run as, and what they open: the request's own, never a server's. */
export interface SignpostCaller<Ctx> {
  context: Ctx;
  browseBackend(): BrowseBackend;
  /** Opens one script run for this caller. */
  scriptRun(): ScriptFaceBackend<Ctx>;
  /** Told of every finished tool call (access log, metrics); never given its arguments. */
  observeToolCall?: ToolCallObserver;
}

export interface SignpostMcpDeps<Ctx> {
  gateway: GatewayPort<Ctx>;
  requestState: SignpostRequestStateCodec;
  /**
   * The caller of the request a handler serves, read from that request (`ctx`) on every call:
   * a server may answer one request after another (see mcp-server-pool.ts), so nothing of a
   * caller is kept in what it registered. Called without `ctx` only while building a server
   * that lists resources (those are the caller's own routes), which is never a shared one.
   */
  callerOf(ctx?: ServerContext): SignpostCaller<Ctx>;
  /** Whether the script face has its tool. */
  scripts: boolean;
}

const INSTRUCTIONS: Record<Face, string> = {
  actions:
    "Actions: start_action with the user's words and every field they gave (search_capabilities lists what exists) → where asked, a person approves at the link, which carries it out → your next call's answer brings the result. Only call what next_actions lists; cancel_action ends an open action the user gave up.",
  browse: "Browse: search or navigate signpost://start, follow links, submit forms.",
  script: "Script: run_script chains many of these calls in one sandboxed JavaScript run.",
};

/**
 * What Signpost serves: tools, resources, and the Tasks extension (a call that waits on a
 * person's approval can answer with a task, to clients that declare the extension).
 */
export const SIGNPOST_CAPABILITIES = {
  tools: {},
  resources: {},
  extensions: { [TASKS_EXTENSION]: {} },
};

/** What one server is built for (see createSignpostMcpServer). */
export interface ServerBuildScope {
  resources: boolean;
  era?: "legacy" | "modern";
  sdkToolCallChecks?: boolean;
}

/** One MCP server for a face selection; every handler reads its caller from its request. */
export function createSignpostMcpServer<Ctx>(
  deps: SignpostMcpDeps<Ctx>,
  faces: Face[],
  /**
   * `resources: false`: tools only (a request that only calls or lists tools reads no resource).
   * `era: "modern"`: a server for 2026-07-28 requests on /mcp's own leg (modern-json-leg.ts).
   * `sdkToolCallChecks`: every check the SDK makes of a tool call, repeats included (see
   * lean-tool-calls.ts), for a test that compares the two.
   */
  scope: ServerBuildScope = { resources: true },
): McpServer {
  const server = new McpServer(
    { name: "signpost", title: "Signpost", version: "0.1.0" },
    {
      capabilities: scope.sdkToolCallChecks
        ? SIGNPOST_CAPABILITIES
        : leanToolCallCapabilities(SIGNPOST_CAPABILITIES),
      instructions: faces.map((face) => INSTRUCTIONS[face]).join(" "),
      ...(scope.era === "modern" ? modernServerOptions() : {}),
    },
  );
  if (!scope.sdkToolCallChecks) leanToolCalls(server);
  const { callerOf } = deps;
  const contextOf = (ctx?: ServerContext) => callerOf(ctx).context;
  let face: Face = "actions";
  trackToolNames(server);
  // Always wrapped: the wrapper also scrubs every result of the vault's values.
  observeToolCalls(
    server,
    (call, ctx) => callerOf(ctx).observeToolCall?.(call),
    () => face,
  );
  // Inside the observer: the news is scrubbed of vault values and timed with the call it rides on.
  deliverAgentNews(server, deps.gateway, contextOf);
  if (faces.includes("actions")) {
    registerActionTools(server, {
      gateway: deps.gateway,
      contextOf,
      requestState: deps.requestState,
      ...(faces.includes("browse")
        ? {
            readFirst: (ctx: ServerContext, query: string) =>
              questionRead(callerOf(ctx).browseBackend(), query),
          }
        : {}),
    });
    registerConfirmApp(server, deps.gateway, contextOf, scope);
    registerApprovalTaskHandlers(server, {
      gateway: deps.gateway,
      contextOf,
      toResult: (outcome, tool) => toolResult(outcome, undefined, tool),
    });
  }
  face = "browse";
  const declineApproval = deps.gateway.declineApproval?.bind(deps.gateway);
  if (faces.includes("browse"))
    registerBrowseTools(server, (ctx) => callerOf(ctx).browseBackend(), {
      ...scope,
      startsChanges: faces.includes("actions"),
      // Rounds bound to the agent as the action face binds its own.
      approvals: {
        requestState: deps.requestState,
        agentIdOf: (ctx) => deps.gateway.agentIdOf(contextOf(ctx)),
        mayApprove: (ctx, actionId) =>
          deps.gateway.mayApprove?.(contextOf(ctx), actionId) ?? Promise.resolve(true),
        ...(declineApproval
          ? {
              decline: (ctx: ServerContext, actionId: string, version: number) =>
                declineApproval(contextOf(ctx), { action_id: actionId, version }),
            }
          : {}),
      },
    });
  face = "script";
  if (faces.includes("script") && deps.scripts)
    registerScriptTools(server, deps.gateway, (ctx) => callerOf(ctx).scriptRun());
  return server;
}
