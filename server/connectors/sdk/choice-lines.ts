type Json = Record<string, unknown>;
type AsMoney = (v: unknown, key?: string) => unknown;

/**
 * How a line writes a value a patch sends and the words around it: plain on the action face's
 * text, escaped on a browse page (where no value may become structure).
 */
export interface ChoiceStyle {
  code(value: string): string;
  text(value: string): string;
}

const PLAIN: ChoiceStyle = { code: (v) => `\`${v}\``, text: (v) => v };

/**
 * The line under `missing` for each field only the user can choose because each choice changes
 * what is paid: "<field> — the user's choice, each changes what is paid; ask them:
 * `<choice>` $5.00 (<other facts of its row>), …". Nothing when none is missing.
 */
export function paidChoiceLines(value: unknown, asMoney: AsMoney, style: ChoiceStyle = PLAIN): string[] {
  if (!value || typeof value !== "object") return [];
  return Object.entries(value as Record<string, { rows?: unknown[] }>).map(([field, paid]) => {
    const rows = (paid.rows ?? []).filter(
      (r): r is Json => !!r && typeof r === "object" && !Array.isArray(r),
    );
    const listed = rows.slice(0, 10).map((r) => choiceText(r, asMoney(r) as Json, style));
    return `${style.text(field)} — the user's choice, each changes what is paid; ask them${
      listed.length ? `: ${listed.join(", ")}${rows.length > 10 ? ` … ${rows.length - 10} more` : ""}` : ""
    }`;
  });
}

/**
 * The line for each optional field only the user's word sets (an optional offer), while choices
 * are offered and none is set: "<field> — optional: <how>; apply only on their word (or if they
 * asked for the cheapest): `<choice>` $5.00 (…)". Nothing when none is offered. Sets L, M and N:
 * "the user's choice: apply one only on their word" made the played models stop a ready checkout
 * to ask, then advance with the coupon (a call and a new approval each time). Nothing is applied
 * unasked and the user approves the amount on their own screen, so the offer rides on what the
 * agent does anyway: asked with the missing fields (`asking`: asksMore) and sent in that advance,
 * or, with nothing left to ask, offered in its reply (the user may still take it before approving).
 */
export function optInChoiceLines(
  value: unknown,
  asMoney: AsMoney,
  style: ChoiceStyle = PLAIN,
  asking = false,
): string[] {
  if (!value || typeof value !== "object") return [];
  const how = asking ? "ask with the missing fields" : "offer it in your reply, don't stop to ask";
  return Object.entries(value as Record<string, { rows?: unknown[] }>).map(([field, offered]) => {
    const rows = (offered.rows ?? []).filter(
      (r): r is Json => !!r && typeof r === "object" && !Array.isArray(r),
    );
    const listed = rows.slice(0, 10).map((r) => choiceText(r, asMoney(r) as Json, style));
    return `${style.text(field)} — optional: ${style.text(how)}; apply only on their word (or if they asked for the cheapest): ${listed.join(", ")}${rows.length > 10 ? ` … ${rows.length - 10} more` : ""}`;
  });
}

/**
 * Whether an answer still asks something of the agent before its action can go on (fields
 * missing, a choice to make): an optional offer is then asked with it (optInChoiceLines).
 */
export function asksMore(answer: { outcome?: unknown; status?: unknown }): boolean {
  return answer.outcome === "input_required" && answer.status !== "refused";
}

/**
 * A row as `value` price, other money by name (other facts): its first string is the value a
 * patch sends, its first money its price. Further money is named ("`express` $12.00, total
 * $73.00"): two bare amounts side by side read as two prices.
 */
function choiceText(row: Json, formatted: Json, style: ChoiceStyle): string {
  const key = Object.keys(row).find((k) => typeof row[k] === "string");
  const money = Object.keys(row).filter((k) => typeof row[k] === "number" && formatted[k] !== row[k]);
  const rest = Object.keys(row).filter(
    (k) => k !== key && !money.includes(k) && row[k] !== null && typeof row[k] !== "object",
  );
  const facts = rest.map((k) => `${k} ${String(row[k])}`).join(", ");
  const amounts = money
    .map((k, i) =>
      i === 0 ? ` ${style.text(String(formatted[k]))}` : `, ${style.text(`${k} ${formatted[k]}`)}`,
    )
    .join("");
  return `${key ? style.code(String(row[key])) : ""}${amounts}${facts ? ` (${style.text(facts)})` : ""}`;
}
