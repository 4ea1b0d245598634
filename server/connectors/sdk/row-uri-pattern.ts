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

/**
 * Whether markdown shows a link to `uri`: as a link, as an address in code (a page under
 * parameters), or as a row's id in code beside its listing's one row address (rowUriPattern).
 */
export function showsLink(markdown: string | null, uri: string): boolean {
  if (!markdown) return false;
  const id = uri.split("?")[0]?.split("/").pop() ?? "";
  return (
    markdown.includes(`](${uri})`) ||
    markdown.includes(`\`${uri}\``) ||
    (!!id && markdown.includes(`\`${id}\``))
  );
}

/**
 * Whether an opened page already names a route: it is the page opened (`named`), or the page
 * shows its address (a listing's "Each row's page: `…`"). A list of other pages leaves it out.
 */
export function namesRoute(
  markdown: string,
  named: string | null,
  route: { pattern: string; example?: string },
): boolean {
  return route.pattern === named || route.example === named || showsLink(markdown, route.pattern);
}
