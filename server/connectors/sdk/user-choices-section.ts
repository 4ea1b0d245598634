import type { BackendOutcome } from "./browse-backend";
import { asksMore, optInChoiceLines, paidChoiceLines } from "./choice-lines";
import { code, escapeText } from "./markdown";
import { moneyRenderer } from "./money-renderer";

type Choices = Record<string, { list?: string }>;

/**
 * The choices that are the user's (a price each, or an optional offer such as a coupon) on an
 * action's page, in the action face's words, escaped: on every page, the brief one that leaves the
 * action with a person too, so an offer that applies reaches the user before they approve without
 * it (issue 23: a purchase started with its items named went to approval at $48, its $5 offer unsaid).
 * `setAt`: where no form follows, the one submit that sets one on the user's word. `lists`: the
 * option lists these lines already name, for the choices section to leave out.
 */
export function userChoicesSection(
  outcome: BackendOutcome,
  setAt?: string,
): { markdown: string; lists: string[] } {
  const asMoney = moneyRenderer(outcome.money_of as { keys?: string[]; currency?: string } | undefined);
  const style = { code: (v: string) => code(v), text: (v: string) => escapeText(v) };
  const lines = [
    ...paidChoiceLines(outcome.paid_choices, asMoney, style),
    ...optInChoiceLines(outcome.opt_in_choices, asMoney, style, asksMore(outcome)),
  ];
  const chosen = {
    ...((outcome.paid_choices ?? {}) as Choices),
    ...((outcome.opt_in_choices ?? {}) as Choices),
  };
  const lists = Object.values(chosen).flatMap((c) => (c.list ? [c.list] : []));
  if (!lines.length) return { markdown: "", lists };
  const fields = Object.keys(chosen).map(code).join(" or ");
  const set =
    setAt && outcome.version !== undefined
      ? `\n\nOn their word: submit ${code(setAt)} with \`version\` ${escapeText(outcome.version)} and ${fields}.`
      : "";
  return { markdown: `${lines.map((l) => `- ${l}`).join("\n")}${set}`, lists };
}
