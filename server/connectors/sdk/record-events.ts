/**
 * What a record has been through, so a person's words about events ("the order that hasn't
 * shipped", "my paid invoice") match what happened to it, not only what its row happens to say: a
 * delivered order's row says "delivered", yet it shipped and was paid. Two sources, both read from
 * the row a node offers, for every connector:
 *
 * - a declared status lifecycle (`statusLifecycle`): ordered states, so a record in one has passed
 *   every earlier one (`delivered` → `paid`, `shipped`); no tokens added to any answer;
 * - event timestamps under names like `<event>_at`, `<event>ed_at` or `<event>_date` (an imported
 *   record's `shipped_at`): a value says the event happened, null says not (yet).
 *
 * Events are compared by a rough English stem (`eventStem`): "shipped", "shipping", "shipment"
 * and `ship_date` are one event.
 */

/** A status field's ordered states, declared on the node that offers the records (`NodeDefinition.lifecycle`). */
export interface StatusLifecycle {
  /** The row key holding the state (`status`); a value is read as the state it starts with ("shipped, in transit"). */
  key: string;
  /** The states in the order a record passes them; the first is where every record starts, no event. */
  order: readonly string[];
  /**
   * States off that line (`cancelled`), each with the last state of the line a record can leave it
   * from: the events after that one never happened; those up to it may have (unknown).
   */
  off: Readonly<Record<string, string>>;
  /**
   * What people call a state besides its name, a word or a phrase read word after word
   * (`pending_payment`: "waiting for payment"): only a record in that state says them, so "my
   * order that's waiting for payment" describes it. Absent: the states' names alone.
   */
  words?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Declares a status lifecycle: `statusLifecycle("status", ["pending_payment", "paid", "shipped",
 * "delivered"], { cancelled: "paid" })` — a delivered order was paid and shipped; a cancelled one
 * never shipped (it was cancelled by `paid` at the latest), and whether it was paid is not said.
 * `words`: what people call each state besides its name (StatusLifecycle.words).
 */
export function statusLifecycle(
  key: string,
  order: readonly string[],
  off: Readonly<Record<string, string>> = {},
  words: Readonly<Record<string, readonly string[]>> = {},
): StatusLifecycle {
  if (!key || order.length < 2) throw new Error("statusLifecycle: a key and at least two ordered states");
  for (const [state, from] of Object.entries(off))
    if (!order.includes(from))
      throw new Error(`statusLifecycle: ${state} leaves from ${from}, not on the line`);
  for (const state of Object.keys(words))
    if (!order.includes(state) && !Object.hasOwn(off, state))
      throw new Error(`statusLifecycle: words for ${state}, not one of its states`);
  return {
    key,
    order: [...order],
    off: { ...off },
    ...(Object.keys(words).length ? { words: { ...words } } : {}),
  };
}

/** Past forms no suffix rule reaches. */
const IRREGULAR: Record<string, string> = {
  paid: "pay",
  sent: "send",
  sold: "sell",
  made: "make",
  bought: "buy",
  built: "build",
  held: "hold",
  lost: "lose",
  won: "win",
};

/** The verb of an irregular past form ("paid" → "pay"); undefined for any other word. */
export function verbOfPast(word: string): string | undefined {
  return Object.hasOwn(IRREGULAR, word) ? IRREGULAR[word] : undefined;
}

/**
 * An event word's rough stem, for comparing a person's word with a state or a timestamp's name:
 * "shipped", "shipping", "shipment" → "ship"; "delivered", "delivery" → "deliver"; "paid",
 * "payment" → "pay"; "cancelled", "cancellation" → "cancel".
 */
export function eventStem(word: string): string {
  const w = word.toLowerCase();
  const irregular = verbOfPast(w);
  if (irregular) return irregular;
  const cut = /^(.{3,}?)(?:ation|ment|ing|ion|ed|es|e|s|y)$/.exec(w)?.[1] ?? w;
  return cut.replace(/([b-df-hj-np-tv-z])\1$/, "$1");
}

/** `shipped_at`, `ship_date`, `shippedAt` → the event's stem; undefined for any other key. */
export function stampedEvent(key: string): string | undefined {
  const snake = key.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
  const event = /^([a-z]+(?:_[a-z]+)*?)_(?:at|date|on)$/.exec(snake)?.[1];
  return event && !event.includes("_") ? eventStem(event) : undefined;
}

/**
 * The events a row states: each event's stem → whether the record went through it (true) or not
 * yet (false). Events neither source mentions are absent: unknown, never "not".
 */
export function recordEvents(
  row: Record<string, unknown>,
  lifecycle?: StatusLifecycle,
): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [key, value] of Object.entries(row)) {
    const event = stampedEvent(key);
    if (!event) continue;
    if (value === null || value === "") out.set(event, out.get(event) ?? false);
    else if (typeof value === "string" || typeof value === "number") out.set(event, true);
  }
  const state = lifecycle ? stateOf(lifecycle, row[lifecycle.key]) : undefined;
  if (!lifecycle || state === undefined) return out;
  const line = lifecycle.order.slice(1);
  const at = lifecycle.order.indexOf(state);
  const from = lifecycle.off[state];
  // On the line: every event up to its state happened, none after. Off it: its own did, those
  // after where it left never did, those before are unknown.
  const known = at >= 0 ? line : line.slice(lifecycle.order.indexOf(from ?? ""));
  for (const e of known) {
    const stem = eventStem(e);
    if (!out.get(stem)) out.set(stem, at >= 0 && lifecycle.order.indexOf(e) <= at);
  }
  if (at !== 0) out.set(eventStem(state), true);
  return out;
}

/** The declared state a row's value is (or starts with: "shipped, in transit" is shipped). */
export function stateOf(lifecycle: StatusLifecycle, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.toLowerCase();
  const states = [...lifecycle.order, ...Object.keys(lifecycle.off)].sort((a, b) => b.length - a.length);
  return states.find((s) => v === s || v.startsWith(`${s},`) || v.startsWith(`${s} `));
}
