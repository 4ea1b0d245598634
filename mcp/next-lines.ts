import { code, escapeText } from "@/server/connectors/sdk/markdown";
import type { OutcomeLike } from "./outcome-output";

type Json = Record<string, unknown>;
type Next = OutcomeLike["next_actions"][number];

/**
 * The arguments of a next call as the text shows them. Values the answer's own facts line already
 * gives (`action \`…\` · version 2`) are named, not repeated: `{action_id, version}`. An action's
 * id is ~14 tokens and stood on every next line and the facts line (~1,200 of 10,700 tokens read
 * over twenty everyday tasks); the names still say which arguments this tool takes, so a tool
 * that takes no version (cancel_action) is never sent one. A call that carries more (a patch the
 * server made) is written whole, to be copied as it is.
 */
export function nextArgsText(args: Json | undefined, actionId: unknown, version: unknown): string {
  const entries = Object.entries(args ?? {});
  if (!entries.length) return "";
  // Only a call on the facts line's own action: another action's version is its own.
  if (args?.action_id !== actionId) return ` ${JSON.stringify(args)}`;
  const named = entries
    .filter(([k, v]) => (k === "action_id" && v === actionId) || (k === "version" && v === version))
    .map(([k]) => k);
  // A call with more than those (a ready-made patch) is written whole: copied as it is.
  if (!named.length || named.length < entries.length) return ` ${JSON.stringify(args)}`;
  return ` {${named.join(", ")}}`;
}

/** One allowed next call of an action answer: its tool, arguments, what it does and who decides. */
export function nextLine(n: Next, result: OutcomeLike): string {
  // Another ask of the user's words this action does not do: what it asked, then its one call.
  // Both echo the user's words: inert on one line, so no line break or link in them forges a line.
  if (typeof n.description === "string" && n.description.startsWith("also asked: "))
    return `- ${escapeText(n.description)} → ${n.tool} ${code(n.args ?? {})}`;
  return `- ${n.tool}${nextArgsText(n.args, result.action_id, result.version)}${
    // The one argument the agent adds itself: a key of its own, new for a new request.
    n.tool === "confirm_action" ? " + idempotency_key" : ""
  } — ${n.description}${
    // Said once: "The user's approval carries it out" already says who decides.
    n.requires_user_approval && !/approval carries it out/i.test(n.description)
      ? " (needs user approval)"
      : ""
  }${typeof (n as Json).approval === "string" ? ` (${(n as Json).approval})` : ""}`;
}
