import type { ShopOrder, ShopOrderItem } from "./shop-adapter";

/** Words that join item names into one phrase ("the lamp and the mug"). */
const GLUE = new Set(["and", "the", "a", "an", "my", "this", "that", "both", "plus", "or"]);
/** Words between an order and the items that describe it ("the order with the lamp"). */
const DESCRIBES = new Set(["with", "of", "containing", "including", "has", "had", "contains", "holding"]);
/** Words before an item the user keeps ("keep the mug", "except the mug", "not the mug"). */
const KEEPS = new Set(["keep", "keeping", "except", "without", "excluding", "leave", "not"]);
/** Words asking for every item, which no item named beside them narrows ("the whole order"). */
const WHOLE = new Set(["whole", "entire", "everything", "altogether", "completely"]);

/**
 * The words that name a line: the words of its name (three letters or more) that no other line of
 * the order has ("Desk Lamp": desk, lamp; a brand both lines share names neither).
 */
function lineWords(order: ShopOrder): Map<string, string[]> {
  const of = (i: ShopOrderItem) => (i.name.toLowerCase().match(/\p{L}{3,}/gu) ?? []) as string[];
  const count = new Map<string, number>();
  for (const i of order.items) for (const w of new Set(of(i))) count.set(w, (count.get(w) ?? 0) + 1);
  return new Map(order.items.map((i) => [i.id, of(i).filter((w) => count.get(w) === 1)]));
}

/**
 * Where a clause ends: a mark, a word opening a reason, or before a "but" (save in "all but the
 * mug", which keeps the mug): "cancel the lamp but let me have the mug" asks for the lamp.
 */
const CLAUSES =
  /[,;:.!?]|\s(?:because|since|as|so|though|although)\s|(?<!\b(?:all|everything|anything))\s(?=but\s)/i;

/** Words that ask something of an order's lines (to go, or to stay). */
const ACTS = new Set(
  "cancel cancelled canceling cancelling refund refunded return returned drop remove stop keep keeping only just not except excluding without leave".split(
    " ",
  ),
);

const isOrder = (t: string | undefined) => t === "order" || t === "orders";

/**
 * What the user's words ask of an order's lines, where they ask for part of it: the lines they
 * name to go and the lines they keep. Lines named only to describe the order ("my lamp order",
 * "the order with the lamp") ask nothing; words asking for the whole of it ("the whole order",
 * "both") ask for every line. Undefined when the words ask for the whole order (or name no line).
 * Played: "in my lamp order I only want to cancel the lamp and keep the mug" reached the user's
 * approval as the whole order cancelled, which they had to decline.
 */
export function partOfOrderWords(
  order: ShopOrder,
  words: string,
): { asked: ShopOrderItem[]; kept: ShopOrderItem[] } | undefined {
  if (order.items.length < 2) return undefined;
  // Only the clauses that ask something of the lines: one with no such word is a reason or a
  // greeting ("Cancel the lamp order, I no longer need the lamp" asks for the whole order, review
  // 53b; "Hi, please cancel the lamp …", "…, but keep the mug" still ask, review 53c).
  const wordsOf = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) as string[];
  const asking = words
    .split(CLAUSES)
    .filter((c) => wordsOf(c).some((t) => ACTS.has(t)) || /\b(?:all|everything)\s+but\b/i.test(c));
  if (!asking.length) return undefined;
  const tokens = wordsOf(asking.join(" "));
  const names = lineWords(order);
  const lineAt = (t: string | undefined) =>
    t === undefined
      ? undefined
      : order.items.find((i) =>
          (names.get(i.id) ?? []).some((w) => t === w || t === `${w}s` || t === `${w}es`),
        );
  const joins = (t: string | undefined) => t !== undefined && (GLUE.has(t) || !!lineAt(t));
  const asked = new Set<ShopOrderItem>();
  const kept = new Set<ShopOrderItem>();
  tokens.forEach((t, at) => {
    const line = lineAt(t);
    if (!line) return;
    let after = at + 1;
    while (joins(tokens[after])) after++;
    let before = at - 1;
    while (joins(tokens[before])) before--;
    // "my lamp order", "the order with the lamp", "the order that has the lamp": the order named.
    if (isOrder(tokens[after])) return;
    const link = tokens[before];
    if (link && DESCRIBES.has(link)) {
      const prev = tokens[before - 1];
      if (isOrder(prev) || (isOrder(tokens[before - 2]) && (prev === "that" || prev === "which"))) return;
    }
    // "all but the mug", "everything but the mug": kept; "the lamp but the mug" is no such phrase.
    const allBut = link === "but" && ["all", "everything"].includes(tokens[before - 1] ?? "");
    // "I still want the lamp": kept, where "I want the lamp cancelled" asks.
    const still = ["want", "need", "like"].includes(link ?? "") && tokens[before - 1] === "still";
    (link && (KEEPS.has(link) || allBut || still) ? kept : asked).add(line);
  });
  if (kept.size) return { asked: order.items.filter((i) => !kept.has(i)), kept: [...kept] };
  if (!asked.size || asked.size === order.items.length || tokens.some((t) => WHOLE.has(t))) return undefined;
  return { asked: [...asked], kept: order.items.filter((i) => !asked.has(i)) };
}
