import { McpServer } from "@modelcontextprotocol/server";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { registerApprovalTaskHandlers, TASKS_EXTENSION } from "./approval-tasks";
import type { Face } from "./faces";
import type { GatewayPort } from "./gateway-port";
import { observeToolCalls, type ToolCallObserver } from "./observe-tool-calls";
import { registerActionTools, toolResult } from "./register-action-tools";
import { registerBrowseTools } from "./register-browse-tools";
import { registerConfirmApp } from "./register-confirm-app";
import { registerScriptTools, type ScriptFaceBackend } from "./register-script-tools";
import { trackToolNames } from "./registered-tool-names";
import type { SignpostRequestStateCodec } from "./request-state";

export interface SignpostMcpDeps<Ctx> {
  gateway: GatewayPort<Ctx>;
  browseBackend(context: Ctx): BrowseBackend;
  /** Opens one script run for this caller; without it the script face has no tool. */
  scriptRun?(context: Ctx): ScriptFaceBackend<Ctx>;
  requestState: SignpostRequestStateCodec;
  /** Told of every finished tool call (access log, metrics); never given its arguments. */
  observeToolCall?: (context: Ctx) => ToolCallObserver;
}

const INSTRUCTIONS: Record<Face, string> = {
  actions:
    "Actions: search_capabilities → start_action (send every known field in patch) → a person approves → confirm_action → verify_action. Only call what next_actions lists; cancel_action ends an open action the user gave up.",
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

/** One MCP server instance for one caller and face selection (built per request: stateless). */
export function createSignpostMcpServer<Ctx>(
  deps: SignpostMcpDeps<Ctx>,
  context: Ctx,
  faces: Face[],
  /** `resources: false`: tools only (a request that only calls or lists tools reads no resource). */
  scope: { resources: boolean } = { resources: true },
): McpServer {
  const server = new McpServer(
    { name: "signpost", title: "Signpost", version: "0.1.0" },
    {
      capabilities: SIGNPOST_CAPABILITIES,
      instructions: faces.map((face) => INSTRUCTIONS[face]).join(" "),
    },
  );
  let face: Face = "actions";
  trackToolNames(server);
  // Always wrapped: the wrapper also scrubs every result of the vault's values.
  observeToolCalls(server, deps.observeToolCall?.(context) ?? (() => undefined), () => face);
  if (faces.includes("actions")) {
    registerActionTools(server, { gateway: deps.gateway, context, requestState: deps.requestState });
    registerConfirmApp(server, deps.gateway, context, scope);
    registerApprovalTaskHandlers(server, {
      gateway: deps.gateway,
      context,
      toResult: (outcome, tool) => toolResult(outcome, undefined, tool),
    });
  }
  face = "browse";
  if (faces.includes("browse")) registerBrowseTools(server, deps.browseBackend(context), scope);
  face = "script";
  const { scriptRun } = deps;
  if (faces.includes("script") && scriptRun)
    registerScriptTools(server, deps.gateway, () => scriptRun(context));
  return server;
}
