import type { TrustedContext } from "../trusted-context";

/**
 * Where words that ask to read or list go, when only capabilities (which change things) were
 * searched: the browse search with those very words, as one call the agent can copy — or, for a
 * key without the browse face, get_context of one record, naming the kinds it takes (a model
 * guessed "order" with nothing to go on). Round 3's model, told only "search and
 * navigate the pages" beside a listed checkout with its start call, tried start_action first.
 */
export function readingPath(
  ctx: Pick<TrustedContext, "agentFaces"> | null,
  words: string,
  kinds: readonly string[] = [],
): string {
  const browse = !ctx?.agentFaces || ctx.agentFaces.includes("browse");
  return browse
    ? `To read or list records: search ${JSON.stringify({ query: words.slice(0, 200) })}, then navigate its links`
    : `To view a record: get_context with its entity${kinds.length ? ` (${kinds.slice(0, 20).join(", ")})` : ""} and entity_id`;
}
