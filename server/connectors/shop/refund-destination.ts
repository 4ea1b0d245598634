import { z } from "zod";
import { withoutDenied } from "../sdk/negated-words";
import type { ValidationError } from "../sdk/outcome";
import { PAYMENT_WORDS } from "./payment-words";
import type { ShopOrder } from "./shop-adapter";

/**
 * Where the user asked a refund to go ("to my store credit" → `balance`): kept only to be said
 * back, never sent. The shop refunds to how the order was paid and takes no other destination,
 * so an ask for another one is said on the summary's money line, where the agent and the approver
 * read it before approving. Issue 23: "refund it to my store credit" went to the card and nothing
 * said store credit was impossible.
 */
export const refundToSchema = z
  .enum(["balance", "card"])
  .optional()
  .describe(
    "A refund goes back to how the order was paid, nowhere else; send only one the user named (balance = store credit), so another is caught before approval",
  );

type Method = keyof typeof PAYMENT_WORDS;
const NAMES: Record<Method, string> = { balance: "store credit", card: "a card" };

/**
 * Where a refund of this order goes, said on the order a return is chosen from: set CF's player
 * read the after-sales answer for the destination the user asked, found none, and read the action
 * again (the money line was only on the approval screen).
 */
export function refundsTo(order: ShopOrder): string | undefined {
  const paid = order.payment?.method;
  return paid && paid in NAMES ? `${NAMES[paid as Method]} (how it was paid)` : undefined;
}

const said = (text: string, phrase: string) =>
  new RegExp(`(^|[^\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}s?($|[^\\p{L}])`, "iu").test(text);

/**
 * The destination the user asked for: the field as sent, else the one payment method the reason
 * (the user's own words where the start took them) names by its words; none where both or neither.
 * A reason is read because a field nobody must fill is never read from the words by the engine,
 * and a default would be shown as a choice the user did not make.
 */
export function askedRefundTo(values: Record<string, unknown>): Method | undefined {
  if (values.refund_to === "balance" || values.refund_to === "card") return values.refund_to;
  const named = namedIn(affirmed(reason(values)));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The destinations the user's words refuse ("not to store credit", "anything but store credit",
 * "don't refund it to my card"): review 53b found them read as asked, and a refund reached
 * approval going where the user had said no.
 */
export function refusedRefundTo(values: Record<string, unknown>): Method[] {
  const words = reason(values);
  const kept = namedIn(affirmed(words));
  return namedIn(words).filter((m) => !kept.includes(m));
}

const reason = (values: Record<string, unknown>) => (typeof values.reason === "string" ? values.reason : "");
const namedIn = (text: string) =>
  (Object.keys(PAYMENT_WORDS) as Method[]).filter((m) => PAYMENT_WORDS[m].some((w) => said(text, w)));
/**
 * The words less those a negation denies, and less a way to pay a denied verb of moving money
 * sends the money to ("don't refund it to my card"); a denied verb of anything else refuses no
 * way to pay ("I don't mind getting store credit", "don't forget to refund it to my card": review
 * 53c found both read as refusals).
 */
const affirmed = (text: string) =>
  withoutDenied(
    text.replace(CARRIED_DENIAL, (m, lead: string) => `${lead}${" ".repeat(m.length - lead.length)}`),
  );
const CARRIED_DENIAL = new RegExp(
  `(\\b(?:don['’]?t|do not|never|not)\\s+(?:refund|send|put|pay|return|give|move|transfer|credit)\\b(?:\\s+[\\w']+){0,4}?\\s+(?:to|on|onto|into)\\s+(?:my\\s+|the\\s+|your\\s+)?)(?:${Object.values(
    PAYMENT_WORDS,
  )
    .flat()
    .sort((a, b) => b.length - a.length)
    .join("|")})`,
  "gi",
);

/**
 * A destination the user asked for that the refund cannot go to, as the stop that asks them:
 * the person approving was shown "not store credit as asked" and declined (played), so the
 * request waits before approval, naming where the money can go, until the agent sends the
 * destination the user accepted. Where only the field asked it, clearing it is the same answer;
 * where the user's words asked it, the words would ask again, so the paying method is sent.
 */
export function refundDestinationStop(
  order: ShopOrder,
  paidLabel: string | null | undefined,
  values: Record<string, unknown>,
): ValidationError | undefined {
  const asked = askedRefundTo(values);
  const paid = order.payment?.method;
  if (
    paid &&
    paid in NAMES &&
    values.refund_to === undefined &&
    refusedRefundTo(values).includes(paid as Method)
  ) {
    const label = paidLabel ?? NAMES[paid as Method];
    return {
      field: "refund_to",
      code: "refund_destination_unavailable",
      message: `the money can only go back to how ${order.id} was paid (${label}), which the user's words refuse; ask the user whether ${label} is fine, then send refund_to: "${paid}"; nothing was requested yet`,
    };
  }
  if (!asked || !paid || asked === paid || !(paid in NAMES)) return undefined;
  const label = paidLabel ?? NAMES[paid as Method];
  const wordsAsk = askedRefundTo({ reason: values.reason }) === asked;
  return {
    field: "refund_to",
    code: "refund_destination_unavailable",
    message: `the money can only go back to how ${order.id} was paid (${label}), not to ${NAMES[asked]} as the user asked; ask the user whether ${label} is fine, then send refund_to: "${paid}"${wordsAsk ? "" : " (or refund_to: null)"}; nothing was requested yet`,
  };
}

/**
 * The summary's "money goes to" line: the paying method's label, and, where the user asked for
 * another destination, that it cannot go there.
 */
export function refundDestinationLine(refundTo: string, order: ShopOrder, asked: Method | undefined): string {
  const paid = order.payment?.method;
  return asked && paid && asked !== paid
    ? `${refundTo} — not ${NAMES[asked]} as asked: a refund can only go back to how the order was paid`
    : // Set BA: "(how the order was paid)" beside a refund_to field read as a choice; both
      // models asked the user, who named store credit, which the shop does not take.
      `${refundTo} (how the order was paid; a refund goes nowhere else)`;
}
