import type { HeldInWords } from "../../engine/held-values-in-words";
import { actorOf, type TrustedContext } from "../trusted-context";
import { visible } from "./caller-scope";
import type { GatewayDeps } from "./gateway-deps";

/** One capability's reading of the words: the record its start took, and the values they name for it. */
export type HeldNamed = HeldInWords & { capability: string };

/**
 * Per capability among `only` that the caller may see and whose start takes a value from the
 * words: those values, and which of them the record holds now (engine held-values-in-words.ts),
 * one evaluation each, nothing saved. `entityId`: the record given; else the one each start takes
 * from the words.
 */
export type HeldValuesNamed = (
  ctx: TrustedContext,
  asked: { words: string; entityId?: string; only: readonly string[] },
) => Promise<HeldNamed[]>;

export function heldValuesNamedOperation({ engine, capabilities }: GatewayDeps): HeldValuesNamed {
  return async (ctx, { words, entityId, only }) => {
    const read = await Promise.all(
      only.map(async (id) => {
        const c = capabilities.get(id);
        if (!c || !visible(ctx, c)) return null;
        const held = await engine.heldValuesInWords(actorOf(ctx), c, words, entityId);
        return held && Object.keys(held.taken).length ? { ...held, capability: id } : null;
      }),
    );
    return read.filter((r) => r !== null);
  };
}
