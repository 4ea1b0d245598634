/**
 * The one address every row of a listing opens at, with the row's id in its place
 * (`shop://order/{id}`), or null when the rows' addresses do not share one. A listing whose rows
 * each carried a link repeated every id twice (`[ord_paid](shop://order/ord_paid)`), and an
 * imported listing added an "Open:" list repeating each row again: one line with the pattern says
 * the same for every row, at a tenth of the tokens.
 */
export function rowUriPattern(ids: readonly string[], uris: readonly string[], name: string): string | null {
  if (!ids.length || ids.length !== uris.length) return null;
  const first = uris[0] as string;
  const id = encodeURIComponent(ids[0] as string);
  const at = first.lastIndexOf(id);
  if (!id || at < 0) return null;
  const prefix = first.slice(0, at);
  const suffix = first.slice(at + id.length);
  const fits = ids.every((x, i) => x !== "" && uris[i] === `${prefix}${encodeURIComponent(x)}${suffix}`);
  return fits ? `${prefix}{${name}}${suffix}` : null;
}
