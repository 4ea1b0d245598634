/**
 * A table looked up by a word someone sent, with no prototype: `table["constructor"]` is
 * undefined, not Object's own function (review 63: "my orders without a constructor" failed the
 * call where a plain object literal was indexed by the user's word). Frozen: a table of words is
 * a constant.
 */
export function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
