import type { AnyCapability } from "../../connectors/sdk/define-capability";
import type { NextAction } from "../../connectors/sdk/outcome";
import type { GatewayOutcome } from "../gateway-pipeline";
import type { TrustedContext } from "../trusted-context";
import { visible } from "./caller-scope";
import { capabilityIndex } from "./capability-index";

/** A title as compared: case and spaces do not count, every other character does. */
const folded = (name: string) => name.replace(/\s+/g, "").toLowerCase();

/**
 * The capability a start names: by its id, or by its exact title (what pages and answers show a
 * person; case and spaces aside, never a near spelling, so nothing the agent did not name runs).
 * A name that is neither, or a title several connectors' capabilities share, is answered with
 * the capabilities to name instead, by id and title: a model is never left at a dead end.
 */
export function capabilityByName(
  name: string,
  capabilities: ReadonlyMap<string, AnyCapability>,
  caller: TrustedContext,
): { capability: AnyCapability } | { refusal: GatewayOutcome } {
  const byId = capabilities.get(name);
  if (byId) return { capability: byId };
  const titled = titledCapabilities(name, capabilities);
  const only = titled.length === 1 ? titled[0] : undefined;
  if (only) return { capability: only };
  const quoted = JSON.stringify(name.slice(0, 64));
  if (titled.length)
    return {
      refusal: {
        outcome: "rejected",
        reason: "ambiguous_capability",
        message: `${quoted} is the title of ${titled.length} capabilities: ${named(titled, true)}; start the one meant by its id`,
        retryable: false,
        next_actions: titled.map(startOf),
      },
    };
  // Nearest by the capability search's own ranking over the name's words, among those the
  // caller's role may use (the ones search_capabilities would show it), and only the strong
  // ones (half the best score or more): a weak match costs tokens and reads as a suggestion.
  const hits = capabilityIndex()
    .search(name, 10)
    .filter((h) => {
      const c = capabilities.get(h.capability);
      return !!c && visible(caller, c);
    });
  const best = hits[0]?.score ?? 0;
  const nearest = hits
    .filter((h) => h.score >= best / 2)
    .slice(0, 3)
    .map((h) => capabilities.get(h.capability) as AnyCapability);
  return {
    refusal: {
      outcome: "not_found",
      reason: "unknown_capability",
      message: nearest.length
        ? `No capability has the id or title ${quoted}; the nearest: ${named(nearest, false)}`
        : `No capability has the id or title ${quoted}; find one by the user's words`,
      retryable: false,
      next_actions: [
        ...nearest.map(startOf),
        { tool: "search_capabilities", description: "Find the capability by the user's words" },
      ],
    },
  };
}

/** The capabilities whose title is `name`, case and spaces aside (exact otherwise). */
export function titledCapabilities(
  name: string,
  capabilities: ReadonlyMap<string, AnyCapability>,
): AnyCapability[] {
  const wanted = folded(name);
  return [...capabilities.values()].filter((c) => folded(c.title) === wanted);
}

/**
 * A permission target that names one capability by its exact title ("After-sales request", or
 * "capability:After-sales request"), as that capability's target; any other target as given (the
 * permission grammar then reads it, or refuses it).
 */
export function targetOfTitle(target: string, capabilities: ReadonlyMap<string, AnyCapability>): string {
  const name = target.startsWith("capability:") ? target.slice("capability:".length) : target;
  const titled =
    /^[\w -]+$/.test(name) && !capabilities.has(name) ? titledCapabilities(name, capabilities) : [];
  return titled.length === 1 ? `capability:${titled[0]?.id}` : target;
}

/** "`after_sales` (After-sales request)", with its connector where titles alone do not tell them apart. */
function named(list: AnyCapability[], withConnector: boolean): string {
  return list.map((c) => `\`${c.id}\` (${c.title}${withConnector ? `, ${c.connector}` : ""})`).join(", ");
}

const startOf = (c: AnyCapability): NextAction => ({
  tool: "start_action",
  args: { capability: c.id },
  description: c.title,
});
