import type { AnyCapability, MoneyKeys } from "../connectors/sdk/define-capability";
import { valueKeys } from "./choice-words";

type Row = Record<string, unknown>;

/** The choices of a field that changes the money moved: the option list they come from and its rows. */
export interface PaidChoice {
  list?: string;
  /** The key of each row holding the value a patch sends (`tier` for plan_tier). */
  key?: string;
  rows: Row[];
}

/** The option list that fills `field` (`options.field_of` names it), and its object rows. */
function offeredRows(field: string, options: Record<string, unknown>): PaidChoice | undefined {
  const fieldOf = (options.field_of ?? {}) as Record<string, string>;
  const list = Object.entries(fieldOf).find(([k, f]) => f === field && Array.isArray(options[k]))?.[0];
  if (!list) return undefined;
  // Only the choices that can be taken: one open choice beside refused ones is no choice.
  const rows = (options[list] as unknown[])
    .filter((r): r is Row => !!r && typeof r === "object" && !Array.isArray(r))
    .filter((r) => r.possible !== "no" && r.eligible !== false);
  const key = valueKeys(field).find((k) => rows.length > 0 && rows.every((r) => typeof r[k] === "string"));
  return { list, ...(key ? { key } : {}), rows };
}

/** Rows that differ in a declared money key (two prices, two totals): choosing among them moves other money. */
function pricesDiffer(rows: Row[], money: MoneyKeys | undefined): boolean {
  return (money?.keys ?? []).some(
    (key) => new Set(rows.map((r) => r[key]).filter((v) => typeof v === "number")).size > 1,
  );
}

/** Whether a node of the capability declares `field` a paid choice (see NodeDefinition.paidChoices). */
function declaredPaid(capability: AnyCapability, field: string): boolean {
  return capability.nodes.some((n) => n.paidChoices?.includes(field));
}

/**
 * The choices of `field` when choosing among them changes the money the action moves, so no
 * default may stand in for the user's word: the field is declared so (`paidChoices`), or the
 * rows offered for it differ under one of the capability's declared money keys (a shipping
 * method's price). One choice offered is no choice: undefined. A declared field whose node
 * offers no list is still the user's choice (rows empty).
 */
export function paidChoice(
  capability: AnyCapability,
  field: string,
  options: Record<string, unknown>,
): PaidChoice | undefined {
  const offered = offeredRows(field, options);
  if (offered && offered.rows.length < 2) return undefined;
  if (declaredPaid(capability, field)) return offered ?? { rows: [] };
  return offered && pricesDiffer(offered.rows, capability.money) ? offered : undefined;
}

/** For each missing field that is a paid choice, its choices: the answer lists them with their prices. */
function paidChoicesOf(
  capability: AnyCapability,
  missing: string[],
  options: Record<string, unknown>,
): Record<string, PaidChoice> | undefined {
  const out: Record<string, PaidChoice> = {};
  for (const field of missing) {
    const paid = paidChoice(capability, field, options);
    if (paid) out[field] = paid;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The fields every node declares paid, in node order: search_capabilities names them up front. */
export function declaredPaidFields(capability: AnyCapability): string[] {
  return capability.nodes.flatMap((n) => n.paidChoices ?? []);
}

/** `{ paid_choices }` for an answer while a paid choice is missing, else nothing. */
export function withPaidChoices(
  capability: AnyCapability,
  missing: string[],
  options: Record<string, unknown>,
): { paid_choices?: Record<string, PaidChoice> } {
  const paid = paidChoicesOf(capability, missing, options);
  return paid ? { paid_choices: paid } : {};
}

/** The fields every node declares opt-in (an optional offer), in node order: search_capabilities names them. */
export function declaredOptInFields(capability: AnyCapability): string[] {
  return capability.nodes.flatMap((n) => n.optInChoices ?? []);
}

/**
 * `{ opt_in_choices }` while an opt-in field is not set and its node offers choices for it (one
 * offer is a choice too: take it or not), else nothing. The answer says they are the user's.
 */
export function withOptInChoices(
  capability: AnyCapability,
  values: Record<string, unknown>,
  options: Record<string, unknown>,
): { opt_in_choices?: Record<string, PaidChoice> } {
  const out: Record<string, PaidChoice> = {};
  for (const field of declaredOptInFields(capability)) {
    if (values[field] !== undefined && values[field] !== null) continue;
    const offered = offeredRows(field, options);
    if (offered?.rows.length) out[field] = offered;
  }
  return Object.keys(out).length ? { opt_in_choices: out } : {};
}
