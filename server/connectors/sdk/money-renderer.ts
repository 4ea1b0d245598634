import { formatMoney } from "./render-decision-summary";

type Json = Record<string, unknown>;

/**
 * Every value under a declared money key shown as money ("$156.50"), at any depth of a row, and
 * a value that is itself under one (`options.max_refund`, named by `key`): round 3 read
 * "options.max_refund: 6100" because only keys inside a value were looked at.
 */
export function moneyRenderer(money: { keys?: string[]; currency?: string } | undefined) {
  const keys = new Set(money?.keys ?? []);
  const currency = money?.currency ?? "USD";
  // A value with no money in it is given back as it is, not copied: a record's view was rebuilt
  // whole for every answer (a third of the text's cost for get_context) to change a few fields.
  const walk = (v: unknown, depth: number): unknown => {
    if (!keys.size || depth > 6 || !v || typeof v !== "object") return v;
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const shown = walk(v[i], depth + 1);
        if (shown === v[i]) continue;
        copy ??= v.slice();
        copy[i] = shown;
      }
      return copy ?? v;
    }
    // Values are read by key and copied only once one changes: a [key, value] pair per field of
    // every nested object was most of this walk's cost, for views that mostly hold no money.
    const names = Object.keys(v);
    const record = v as Json;
    let shown: unknown[] | null = null;
    for (let i = 0; i < names.length; i++) {
      const k = names[i] as string;
      const x = record[k];
      const y =
        keys.has(k) && typeof x === "number" && Number.isInteger(x)
          ? formatMoney(x, currency)
          : walk(x, depth + 1);
      if (y === x) continue;
      shown ??= names.map((name) => record[name]);
      shown[i] = y;
    }
    // fromEntries, not assignment: a `__proto__` key stays a key.
    return shown ? Object.fromEntries(names.map((k, i) => [k, (shown as unknown[])[i]])) : v;
  };
  return (v: unknown, key?: string) =>
    key !== undefined && keys.has(key) && typeof v === "number" && Number.isInteger(v)
      ? formatMoney(v, currency)
      : walk(v, 0);
}
