import { z } from "zod";

/**
 * What a person approves, as typed parts the capability declares: the renderer
 * (render-decision-summary.ts) draws each kind one way on every surface and never guesses a
 * meaning from a key's name. A number is money only when a capability says so (`money`, integer
 * minor units and a currency); a number a document describes ("in US dollars", `format: double`)
 * is a `decimal` kept exactly as it is sent, with that unit; any other number is shown as it is.
 */
export type SummaryValue =
  | { kind: "money"; minor: number; currency: string }
  | { kind: "decimal"; value: string; unit?: string; format?: string }
  | { kind: "number"; value: number }
  | { kind: "quantity"; value: number; unit?: string }
  | { kind: "address"; lines: string[] }
  | { kind: "list"; items: SummaryValue[] }
  | { kind: "object"; entries: SummaryEntry[] }
  /** `quoted`: shown as a JSON string (`"acct_1"`), so text never reads as a number, `none` or `yes`. */
  | { kind: "text"; value: string; format?: string; quoted?: boolean }
  | { kind: "boolean"; value: boolean }
  /**
   * How an amount adds up, on one line: "items $36.00 + shipping $5.00 − coupon SAVE5 $5.00 =
   * $36.00". Each term in minor units, negative to subtract. One line, so a shipping price and a
   * discount of the same size are never read as one cancelling the other twice.
   */
  | { kind: "sum"; terms: SumTerm[]; total: number; currency: string }
  | { kind: "none" };

/** One term of a sum: what it is and its amount in minor units (negative: subtracted). */
export type SumTerm = { label: string; minor: number };

/**
 * One labelled value; `key` is the name the value has in what is sent (or the capability's own).
 * `internal`: sent, but decided by nobody (a record's version stamp for a concurrency check): every
 * person's surface shows it as it is sent; the agent's text leaves it out (it cannot act on it).
 */
export type SummaryEntry = {
  key: string;
  label: string;
  value: SummaryValue;
  note?: string;
  internal?: boolean;
};

/** The verb and, for money, how much and from or to where: "Pay $55.00 from Store credit". */
export type SummaryDecision = {
  verb: string;
  amount?: { minor: number; currency: string };
  from?: string;
  to?: string;
  object?: string;
};

export type DecisionSummary = {
  title: string;
  decision?: SummaryDecision;
  /** The one amount the decision is about, shown large ("Total to be charged"). */
  headline?: { label: string; value: SummaryValue };
  entries: SummaryEntry[];
  /** Facts shown for context as they stand now (a balance): not approved, not in the digest. */
  now?: SummaryEntry[];
};

/** Where a capability's summary keeps its typed parts, beside the facts its approval rules read. */
export const SHOWN_KEY = "shown";

const LIMIT = { text: 2000, entries: 500, depth: 12 } as const;

const valueSchema: z.ZodType<SummaryValue> = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("money"), minor: z.number().int(), currency: z.string().regex(/^[A-Z]{3}$/) }),
    z.object({
      kind: z.literal("decimal"),
      value: z.string().max(100),
      unit: z.string().max(300).optional(),
      format: z.string().max(100).optional(),
    }),
    z.object({ kind: z.literal("number"), value: z.number() }),
    z.object({ kind: z.literal("quantity"), value: z.number(), unit: z.string().max(100).optional() }),
    z.object({ kind: z.literal("address"), lines: z.array(z.string().max(300)).max(10) }),
    z.object({ kind: z.literal("list"), items: z.array(valueSchema).max(LIMIT.entries) }),
    z.object({ kind: z.literal("object"), entries: z.array(entrySchema).max(LIMIT.entries) }),
    z.object({
      kind: z.literal("text"),
      value: z.string(),
      format: z.string().max(100).optional(),
      quoted: z.boolean().optional(),
    }),
    z.object({ kind: z.literal("boolean"), value: z.boolean() }),
    z.object({
      kind: z.literal("sum"),
      terms: z.array(z.object({ label: z.string().max(200), minor: z.number().int() })).max(20),
      total: z.number().int(),
      currency: z.string().regex(/^[A-Z]{3}$/),
    }),
    z.object({ kind: z.literal("none") }),
  ]),
);
const entrySchema: z.ZodType<SummaryEntry> = z.lazy(() =>
  z.object({
    key: z.string().max(200),
    label: z.string().max(200),
    value: valueSchema,
    note: z.string().max(300).optional(),
    internal: z.boolean().optional(),
  }),
);
export const decisionSummarySchema = z.object({
  title: z.string().max(300),
  decision: z
    .object({
      verb: z.string().min(1).max(40),
      amount: z.object({ minor: z.number().int(), currency: z.string().regex(/^[A-Z]{3}$/) }).optional(),
      from: z.string().max(300).optional(),
      to: z.string().max(300).optional(),
      object: z.string().max(300).optional(),
    })
    .optional(),
  headline: z.object({ label: z.string().max(200), value: valueSchema }).optional(),
  entries: z.array(entrySchema).max(LIMIT.entries),
  now: z.array(entrySchema).max(LIMIT.entries).optional(),
});

/** A stored summary's typed parts, or null when it has none (an approval made before they existed). */
export function shownSummary(summary: unknown): DecisionSummary | null {
  if (!summary || typeof summary !== "object") return null;
  const parsed = decisionSummarySchema.safeParse((summary as Record<string, unknown>)[SHOWN_KEY]);
  return parsed.success ? parsed.data : null;
}

/** Money in integer minor units (cents) and its ISO currency. */
export function moneyPart(minor: number, currency = "USD"): SummaryValue {
  return { kind: "money", minor, currency };
}

/**
 * Any JSON value as it is, with every key of every object: numbers as numbers, text as text,
 * nothing read as money or as an address. What a value says it is (a `label`, a `name`) does not
 * stand in for the rest of it.
 */
export function plainPart(value: unknown, depth = 0): SummaryValue {
  if (value === null || value === undefined) return { kind: "none" };
  if (typeof value === "boolean") return { kind: "boolean", value };
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "string") return { kind: "text", value };
  if (depth >= LIMIT.depth) return { kind: "text", value: JSON.stringify(value) };
  if (Array.isArray(value)) return { kind: "list", items: value.map((v) => plainPart(v, depth + 1)) };
  if (typeof value === "object")
    return {
      kind: "object",
      entries: Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
        key,
        label: key,
        value: plainPart(v, depth + 1),
      })),
    };
  return { kind: "text", value: String(value) };
}

/** How a capability shows one key of its summary: its label and, when it is not plain, its kind. */
export type ShownField = {
  label: string;
  /** `sum`: a value `{ terms: [{ label, amount }], total }`, money in minor units (see SummaryValue). */
  as?: "money" | "quantity" | "address" | "choice" | "sum" | "hidden";
  /** Sent but decided by nobody (a version stamp): on the person's screen, not in the agent's text. */
  internal?: boolean;
  /** For a list of objects (line items), how each key of an item is shown. */
  items?: Record<string, ShownField>;
};

/**
 * A capability's declaration of its summary: the title, which key is the headline amount and
 * with what label, and how each key is shown. Keys it does not declare are still shown, plainly
 * (see plainPart); only keys declared `hidden` (a structural copy of another, like `currency`)
 * are left out, by the capability's own word.
 */
export type SummaryDeclaration = {
  title: string;
  headline?: { key: string; label: string };
  /** The key holding the currency of every `money` field, else the fixed currency. */
  currency?: { key: string } | { code: string };
  fields: Record<string, ShownField>;
};

function currencyOf(facts: Record<string, unknown>, declaration: SummaryDeclaration): string {
  const c = declaration.currency;
  if (!c) return "USD";
  if ("code" in c) return c.code;
  const v = facts[c.key];
  return typeof v === "string" && /^[A-Z]{3}$/.test(v) ? v : "USD";
}

function declaredPart(value: unknown, field: ShownField | undefined, currency: string): SummaryValue {
  if (value === null || value === undefined || value === "") return { kind: "none" };
  if (field?.as === "money" && typeof value === "number" && Number.isInteger(value))
    return moneyPart(value, currency);
  if (field?.as === "quantity" && typeof value === "number") return { kind: "quantity", value };
  if (field?.as === "address" && typeof value === "string") return { kind: "address", lines: [value] };
  if (field?.as === "sum") {
    const sum = sumPart(value, currency);
    if (sum) return sum;
  }
  if (field?.as === "choice" && value && typeof value === "object" && "label" in value)
    return { kind: "text", value: String((value as { label: unknown }).label) };
  if (field?.items && Array.isArray(value))
    return {
      kind: "list",
      items: value.map((item) =>
        item && typeof item === "object" && !Array.isArray(item)
          ? {
              kind: "object",
              entries: declaredEntries(item as Record<string, unknown>, field.items ?? {}, currency),
            }
          : plainPart(item),
      ),
    };
  return plainPart(value);
}

/** `{ terms: [{ label, amount }], total }` with integer amounts as a sum part; null for anything else. */
function sumPart(value: unknown, currency: string): SummaryValue | null {
  const v = value as { terms?: unknown; total?: unknown } | null;
  if (!v || typeof v !== "object" || !Array.isArray(v.terms) || !Number.isInteger(v.total)) return null;
  const terms: SumTerm[] = [];
  for (const t of v.terms as Array<{ label?: unknown; amount?: unknown }>) {
    if (typeof t?.label !== "string" || !Number.isInteger(t.amount)) return null;
    terms.push({ label: t.label, minor: t.amount as number });
  }
  return { kind: "sum", terms, total: v.total as number, currency };
}

function declaredEntries(
  facts: Record<string, unknown>,
  declared: Record<string, ShownField>,
  currency: string,
  skip: ReadonlySet<string> = new Set(),
): SummaryEntry[] {
  // The declared labels as the connector wrote them: a summary is never interpreted by key names
  // (a transfer's from_account/to_account are "Pay from"/"Pay to", not a before and an after).
  const fields = declared;
  return Object.entries(facts)
    .filter(([key, v]) => v !== undefined && !skip.has(key) && fields[key]?.as !== "hidden")
    .map(([key, v]) => ({
      key,
      label: fields[key]?.label ?? key,
      value: declaredPart(v, fields[key], currency),
      ...(fields[key]?.internal ? { internal: true } : {}),
    }));
}

/** The facts' decision as capabilities write it (amount in minor units beside its currency). */
export type FactsDecision = {
  verb: string;
  amount?: number;
  currency?: string;
  from?: string;
  to?: string;
  object?: string;
};

/**
 * A capability's facts (what its approval rules and effects read) with their typed parts under
 * `shown`, as its declaration says. `decision` and `now` are the facts' own: the sentence's verb
 * and amount, and the context facts kept out of the digest.
 */
export function withShown(
  facts: Record<string, unknown> & { decision?: FactsDecision; now?: Record<string, unknown> },
  declaration: SummaryDeclaration,
): Record<string, unknown> {
  const currency = currencyOf(facts, declaration);
  const d = facts.decision;
  const headKey = declaration.headline?.key;
  const skip = new Set(["decision", "now", SHOWN_KEY, ...(headKey ? [headKey] : [])]);
  const shown: DecisionSummary = {
    title: declaration.title,
    ...(d
      ? {
          decision: {
            verb: d.verb,
            ...(d.amount !== undefined
              ? { amount: { minor: d.amount, currency: d.currency ?? currency } }
              : {}),
            ...(d.from ? { from: d.from } : {}),
            ...(d.to ? { to: d.to } : {}),
            ...(d.object ? { object: d.object } : {}),
          },
        }
      : {}),
    ...(declaration.headline && facts[declaration.headline.key] !== undefined
      ? {
          headline: {
            label: declaration.headline.label,
            value: declaredPart(facts[declaration.headline.key], { label: "", as: "money" }, currency),
          },
        }
      : {}),
    entries: declaredEntries(facts, declaration.fields, currency, skip),
    ...(facts.now ? { now: declaredEntries(facts.now, declaration.fields, currency) } : {}),
  };
  return { ...facts, [SHOWN_KEY]: shown };
}
