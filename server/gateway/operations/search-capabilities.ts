import { findEntity } from "../../connectors/connector-registry";
import type { CapabilityHit } from "../../engine/capability-search";
import { queryClauses } from "../../engine/query-clauses";
import { asksOnlyToRead } from "../../engine/top-match";
import type { TrustedContext } from "../trusted-context";
import { approvalWords } from "./approval-words";
import { visible } from "./caller-scope";
import { capabilityIndex } from "./capability-index";
import type { GatewayDeps } from "./gateway-deps";
import { searchCapabilitiesInputSchema } from "./operation-schemas";
import { readingPath } from "./reading-path";

/** search_capabilities: the capabilities the caller's role may use that match the words, best first. */
export function searchCapabilitiesOperation({ db, capabilities, pipeline, connectorsFor }: GatewayDeps) {
  return (ctx: TrustedContext | null, raw: unknown) =>
    pipeline(
      ctx,
      {
        operation: "capability.searched",
        readOnly: true,
        verb: "search",
        schema: searchCapabilitiesInputSchema,
        target: async () => ({ target: "capabilities" }),
        run: async (input, caller) => {
          const mayUse = (h: CapabilityHit) => {
            const c = capabilities.get(h.capability);
            return c !== undefined && visible(caller, c);
          };
          const whole = capabilityIndex().search(input.query, 10).filter(mayUse);
          const limit = input.limit ?? 3;
          const hits = [
            ...whole.slice(0, limit),
            ...otherAskBests(input.query, whole.slice(0, limit), mayUse),
          ];
          const known = await connectorsFor(caller);
          // Each capability's record, by the name get_context takes ("Order" → order): the
          // kinds of record a model can view are then in the answer it already reads.
          // Who must approve each, as this caller's start and confirm would be decided: a model
          // that knows a key runs a change at once sends one (issue 23: a call less).
          const results = await Promise.all(
            hits.map(async (h) => {
              const record = findEntity(h.applies_to, known)?.entity.name;
              const capability = capabilities.get(h.capability);
              const approval = capability ? await approvalWords(db, caller, capability) : undefined;
              return { ...h, ...(record ? { record } : {}), ...(approval ? { approval } : {}) };
            }),
          );
          const kinds = known.flatMap((c) => c.entities.map((e) => e.name));
          // Matches on the topic alone (no word they ask with is theirs), or on words alone for
          // another kind of record than the words name, are not offered to start.
          if (results.length && results.every((r) => r.topic_only || r.off_topic))
            return {
              outcome: "applied",
              message: `No capability does what these words ask (${results.map((r) => r.capability).join(", ")} ${results.every((r) => r.topic_only) ? "only concern the same kind of record" : "do not do it on the record they name"}). ${readingPath(caller, input.query, kinds)}`,
              retryable: false,
              results,
              next_actions: [],
            };
          return {
            outcome: "applied",
            message: !results.length
              ? "No capability matches; rephrase the intent"
              : `${results.length} capabilities match; the first fits best`,
            retryable: false,
            results,
            next_actions: results.flatMap((r) => r.next_actions),
          };
        },
      },
      raw,
    );
}

/** At most this many asks of one query are searched alone (each is an index search). */
const MAX_ASKS = 3;

/**
 * The best match of each ask when the words ask several things, where the whole query's best
 * matches do not hold it already. Issue 23: "make tkt_2 high priority and give it to Sara" ranked
 * the assignment fourth (its words are a clause of the query, the priority change the rest), so
 * an agent saw one capability for two asks. Only capabilities an ask is for are added (no
 * "not for", topic-only or off-topic match).
 */
function otherAskBests(
  query: string,
  whole: readonly CapabilityHit[],
  mayUse: (h: CapabilityHit) => boolean,
): CapabilityHit[] {
  const asks = queryClauses(query.toLowerCase())
    .filter((c) => c.role === "request" && !asksOnlyToRead(c.text))
    .slice(0, MAX_ASKS);
  if (asks.length < 2) return [];
  const seen = new Set(whole.map((h) => h.capability));
  const added: CapabilityHit[] = [];
  for (const ask of asks) {
    const best = capabilityIndex()
      .search(ask.text, 3)
      .find((h) => mayUse(h) && !h.not_for?.length && !h.topic_only && !h.off_topic);
    if (!best || seen.has(best.capability)) continue;
    seen.add(best.capability);
    added.push({ ...best, another_ask: true });
  }
  return added;
}
