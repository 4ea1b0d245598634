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
import { valueNoneTakes, valueNoneTakesMessage } from "./value-none-takes";
import { valueSetElsewhere } from "./value-set-elsewhere";

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
          const limit = input.limit ?? 3;
          const asks = askBests(input.query, mayUse);
          const ranked = askLed(capabilityIndex().search(input.query, 10).filter(mayUse), asks);
          const hits = [...ranked.slice(0, limit), ...otherAskBests(asks, ranked.slice(0, limit))];
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
          const elsewhere = valueSetElsewhere(input.query, results);
          // A value no match takes at all: said as start_action says it (value-none-takes.ts).
          const unmatched = elsewhere ? null : valueNoneTakes(caller, input.query, results);
          return {
            outcome: "applied",
            message: !results.length
              ? "No capability matches; rephrase the intent"
              : elsewhere
                ? `${results.length} capabilities match, none surely: \`${elsewhere.value}\` is a value of \`${elsewhere.field}\`, which \`${elsewhere.first}\` does not take (\`${elsewhere.takes}\` does); check each one's use before starting it`
                : unmatched
                  ? `${results.length} capabilities match, none surely: ${valueNoneTakesMessage(unmatched, results[0]?.applies_to ?? "record")}`
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
 * The best match of each ask, in the order asked, when the words ask several things (none when
 * they ask one). Only capabilities an ask is for count (no "not for", topic-only or off-topic
 * match). Two asks may share a best ("refund the mug and the kettle").
 */
function askBests(query: string, mayUse: (h: CapabilityHit) => boolean): CapabilityHit[] {
  const asks = queryClauses(query.toLowerCase())
    // An ask said again on another record ("same for the late delivery ticket") has the best of
    // the ask it repeats: its record's words alone would search for something else.
    .filter((c) => c.role === "request" && !c.repeats && !asksOnlyToRead(c.text))
    .slice(0, MAX_ASKS);
  if (asks.length < 2) return [];
  return asks.flatMap((ask) => {
    const best = capabilityIndex()
      .search(ask.text, 3)
      .find((h) => mayUse(h) && !h.not_for?.length && !h.topic_only && !h.off_topic);
    return best ? [best] : [];
  });
}

/**
 * The whole query's matches, led by the asks' own bests when its best match is the best of no
 * ask. Set O: "assign ticket to agent and change priority" scored the ticket status change first
 * on the two asks' words mixed (each ask alone: the assignment, the priority change), and the model
 * guessed the priority field. A lead that is some ask's best stays ("buy my cart, ship it to the
 * office": the purchase, which takes its address too), and so does one matched about as well as
 * the asks alone.
 */
function askLed(whole: CapabilityHit[], asks: readonly CapabilityHit[]): CapabilityHit[] {
  const lead = whole[0];
  if (!lead || asks.length < 2 || asks.some((a) => a.capability === lead.capability)) return whole;
  const led = asks.filter((a, i) => asks.findIndex((o) => o.capability === a.capability) === i);
  // Only a lead far weaker than every ask's own best yields: "mark the ticket as pending" splits
  // at "as" into asks matched worse than the whole words are.
  if (led.length < 2 || led.some((a) => a.score < 2 * lead.score)) return whole;
  const first = led[0] as CapabilityHit;
  return [
    first,
    ...led.slice(1).map((h) => ({ ...h, another_ask: true as const })),
    ...whole.filter((h) => !led.some((a) => a.capability === h.capability)),
  ];
}

/**
 * The best match of each ask not among the matches shown. Issue 23: "make tkt_2 high priority and
 * give it to Sara" ranked the assignment fourth (its words are a clause of the query, the priority
 * change the rest), so an agent saw one capability for two asks.
 */
function otherAskBests(asks: readonly CapabilityHit[], shown: readonly CapabilityHit[]): CapabilityHit[] {
  const seen = new Set(shown.map((h) => h.capability));
  const added: CapabilityHit[] = [];
  for (const best of asks) {
    if (seen.has(best.capability)) continue;
    seen.add(best.capability);
    added.push({ ...best, another_ask: true });
  }
  return added;
}
