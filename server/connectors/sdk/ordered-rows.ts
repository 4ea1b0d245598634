/** One key of a list's order: how two rows compare (negative: `a` first), and the words saying it. */
export interface OrderKey<T> {
  says: string;
  compare: (a: T, b: T) => number;
}

/**
 * Rows sorted by `keys` (the first key that tells two rows apart decides; rows no key tells
 * apart keep their order) and the heading that states that order, both from the same keys: a
 * list's heading cannot say an order its rows are not in. The heading names only the keys that
 * decided some pair of neighbouring rows (a key that decided nothing may be left unsaid without
 * the rest becoming untrue), so it stays short; "" when no key decided anything. With `limit`,
 * the first `limit` rows are kept and the heading speaks of those.
 * Played (issue 23): a heading said "those that can take it first" over rows that were not.
 */
export function orderedRows<T>(
  rows: readonly T[],
  keys: ReadonlyArray<OrderKey<T>>,
  limit = Number.POSITIVE_INFINITY,
): { rows: T[]; says: string } {
  const sorted = rows
    .map((row, at) => ({ row, at }))
    .sort((a, b) => {
      for (const key of keys) {
        const c = key.compare(a.row, b.row);
        if (c) return c;
      }
      return a.at - b.at;
    })
    .map((x) => x.row)
    .slice(0, limit);
  const decided = new Set<number>();
  for (let i = 1; i < sorted.length; i++) {
    const k = keys.findIndex((key) => key.compare(sorted[i - 1] as T, sorted[i] as T) !== 0);
    if (k >= 0) decided.add(k);
  }
  return {
    rows: sorted,
    says: keys
      .filter((_, k) => decided.has(k))
      .map((key) => key.says)
      .join(", then "),
  };
}
