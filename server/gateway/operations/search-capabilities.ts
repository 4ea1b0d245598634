import { findEntity } from "../../connectors/connector-registry";
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
          const hits = capabilityIndex()
            .search(input.query, 10)
            .filter((h) => {
              const c = capabilities.get(h.capability);
              return c && visible(caller, c);
            });
          const known = await connectorsFor(caller);
          // Each capability's record, by the name get_context takes ("Order" → order): the
          // kinds of record a model can view are then in the answer it already reads.
          // Who must approve each, as this caller's start and confirm would be decided: a model
          // that knows a key runs a change at once sends one (issue 23: a call less).
          const results = await Promise.all(
            hits.slice(0, input.limit ?? 3).map(async (h) => {
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
