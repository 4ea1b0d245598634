import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { logger } from "@/server/logger";
import { redactText } from "@/server/redact-secrets";
import { ACTION_TOOLS, type GatewayOutcome, type GatewayPort } from "./gateway-port";
import { toolResult } from "./register-action-tools";

/** How the news block begins: told apart from the answer it comes with. */
export const NEWS_HEADING = "A person decided since your last call:";

/** The tools a model reads the answers of; an MCP App's own tools feed a screen, never the model. */
const READ_BY_THE_MODEL = new Set<string>([...ACTION_TOOLS, "search", "navigate", "submit", "run_script"]);

/** The outcomes of a page that shows the action as it stands (not a refusal at its address). */
const DRAWN_FROM_THE_ACTION = new Set(["applied", "input_required"]);

/**
 * The action whose state a result shows (its id and its status), whose news is in the answer
 * already. A call that only names an action is not about it: a confirm refused for its arguments
 * says nothing of how the approved change ended, and taking its news there lost it for good.
 */
function actionShown(result: unknown, tool: string): string | undefined {
  const shown = (
    result as
      | { structuredContent?: { action_id?: unknown; status?: unknown; uri?: unknown; outcome?: unknown } }
      | undefined
  )?.structuredContent;
  // An action's own page, opened or answering a form (a host that kept the call open while the
  // person decided), shows where it stands now: its news read twice cost ~60 tokens. Only a page
  // drawn from the action: a refusal at its address (arguments the schema refused, a permission)
  // shows nothing of it (review 62: such a submit lost the news for good).
  const page =
    (tool === "navigate" || tool === "submit") &&
    typeof shown?.uri === "string" &&
    DRAWN_FROM_THE_ACTION.has(String(shown.outcome))
      ? /^actions:\/\/([^/?#]+)$/.exec(shown.uri)
      : null;
  if (page?.[1]) return page[1];
  return typeof shown?.action_id === "string" && typeof shown.status === "string"
    ? shown.action_id
    : undefined;
}

/**
 * One decided action, briefly: how it ended, what it made (its verification, result or error)
 * and any step left, as get_context says them; not the summary the agent read before the
 * person decided ("done with: …" repeated ~60 tokens of it per action).
 */
function briefly(outcome: GatewayOutcome): string {
  const { summary: _read, ...rest } = outcome as GatewayOutcome & { summary?: unknown };
  const block = toolResult(rest as GatewayOutcome, undefined, "get_context").content[0];
  return block?.type === "text" ? block.text : "";
}

/**
 * Wraps `server.registerTool` so every model-read tool registered from now on brings, with its
 * answer, what a person decided on the caller's actions since its last call: a text block after it,
 * each action as get_context shows it, briefly. A plain host cannot keep a call open while the person
 * approves, so the agent was told "nothing to call now": this is where it learns how it ended,
 * without a call of its own to ask.
 */
export function deliverAgentNews<Ctx>(
  server: McpServer,
  gateway: GatewayPort<Ctx>,
  contextOf: (ctx?: ServerContext) => Ctx,
): void {
  const news = gateway.agentNews;
  if (!news) return;
  const register = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  (server as { registerTool: unknown }).registerTool = (name: string, config: unknown, handler: unknown) => {
    if (!READ_BY_THE_MODEL.has(name)) return register(name, config, handler);
    const run = handler as (...args: unknown[]) => Promise<unknown>;
    return register(name, config, async (...args: unknown[]) => {
      const result = await run(...args);
      // A task or an elicitation answer has no text for the model yet: the news waits for one that has.
      const shaped = result as { content?: unknown[] };
      if (!Array.isArray(shaped.content)) return result;
      const ctx = args.at(-1) as ServerContext | undefined;
      // The call has run: a failure to read the news never costs its answer (the flags stay for the next call).
      const decided = await news(contextOf(ctx), actionShown(result, name)).catch((error: unknown) => {
        logger.warn({ err: redactText(String(error)), tool: name }, "news of decisions not read");
        return [];
      });
      if (decided.length === 0) return result;
      const told = decided.map(briefly);
      return {
        ...shaped,
        // After the answer: a client that reads only the first block still reads the answer.
        content: [...shaped.content, { type: "text", text: `${NEWS_HEADING}\n${told.join("\n\n")}` }],
      };
    });
  };
}
