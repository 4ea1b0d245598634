import { findEntity } from "../../connectors/connector-registry";
import type { NextAction } from "../../connectors/sdk/outcome";
import { authorize, capabilityTarget } from "../permissions";
import { actorOf, type TrustedContext } from "../trusted-context";
import { approvalWords } from "./approval-words";
import { visible } from "./caller-scope";
import type { GatewayDeps } from "./gateway-deps";
import type { PossibleOn } from "./pick-by-record";

/**
 * What this caller may start on a record now, one call each: the capabilities of the record's
 * kind (by the id prefix its connector declares) that the caller's role and permissions let it
 * start, and whose start the record's state allows (the engine's startsAllowed). A refusal then
 * says what is possible instead of only "no". An id of no known kind gives nothing. `only`: these
 * capabilities alone are weighed (one evaluation each), as for a call about to be offered.
 * `weighed`: the capabilities of the record's kind that were asked about, so one missing from
 * `next` is known to be unable to take the record now, not merely about another kind of record.
 * `describedFor`: without an id, the record the words describe ("the kettle refund ticket"), read
 * against these capabilities' own choices in turn (the first that names one), as their start would.
 */
export function possibleOnRecordOperation({ db, engine, capabilities, connectorsFor }: GatewayDeps) {
  /**
   * The record the words describe through the first of these capabilities whose choices they fit;
   * `kin`: then through the others about the same kind of record (a refusal's: "take the mug off
   * my lamp order" matched only changes whose choices leave the paid lamp order out).
   */
  async function described(ctx: TrustedContext, words?: string, by?: readonly string[], kin?: boolean) {
    const first = by ?? [];
    const kinds = new Set(first.map((id) => capabilities.get(id)?.appliesTo.entity));
    const others = kin
      ? [...capabilities.values()]
          .filter((c) => kinds.has(c.appliesTo.entity) && !first.includes(c.id))
          .map((c) => c.id)
      : [];
    for (const id of words ? [...first, ...others] : []) {
      const c = capabilities.get(id);
      // A refusal's (`kin`): only a record the words describe, never the only one a capability
      // can take ("list my orders" named the one order a payment could take).
      const found =
        c && visible(ctx, c) ? await engine.recordInWords(actorOf(ctx), c, words as string, kin) : null;
      if (found) return found;
    }
    return undefined;
  }
  const possibleOn: PossibleOn = async (ctx, named) => {
    const known = await connectorsFor(ctx);
    const entities = known.flatMap((c) => c.entities.filter((e) => e.idPrefix).map((e) => ({ c, e })));
    const kindOf = (id: string) => {
      const kinds = entities.filter(({ e }) => id.startsWith(e.idPrefix as string));
      return kinds.length === 1 ? kinds[0] : undefined;
    };
    // The record given, else the one id the words quote ("… on ord_7").
    const quoted = [...new Set(named.words?.match(/[A-Za-z0-9][\w-]{2,63}/g) ?? [])].filter((w) => kindOf(w));
    const id =
      named.entityId ??
      (quoted.length === 1 ? quoted[0] : await described(ctx, named.words, named.describedFor, named.kin));
    const kind = id ? kindOf(id) : undefined;
    if (!id || !kind) return null;
    const candidates = [...capabilities.values()].filter(
      (c) =>
        c.appliesTo.field &&
        (!named.only || named.only.includes(c.id)) &&
        findEntity(c.appliesTo.entity, [kind.c])?.entity === kind.e &&
        visible(ctx, c),
    );
    const permitted = (
      await Promise.all(
        candidates.map(async (c) => {
          const d = await authorize(db, ctx, "start", capabilityTarget(c.id), c, { preview: true });
          return d.decision === "allow" ? c : null;
        }),
      )
    ).filter((c) => c !== null);
    const allowed = await engine.startsAllowed(actorOf(ctx), permitted, id);
    const next = await Promise.all(
      allowed.map(
        async (c): Promise<NextAction> => ({
          tool: "start_action",
          args: { capability: c.id, entity_id: id },
          description: c.title,
          approval: await approvalWords(db, ctx, c),
        }),
      ),
    );
    return { id, next, weighed: candidates.map((c) => c.id) };
  };
  return possibleOn;
}
