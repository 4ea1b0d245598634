import type { PageBody, RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { type BrowseUri, formatBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { cells, cellValue, firstTable, withKeptRows } from "./table-cells";

/** Values one filter may be sent at once, at most. */
const MOST = 8;

/** A filter sent with several of its declared values (`?priority=urgent,high`). */
export interface SeveralValues {
  key: string;
  values: string[];
  /** The same address without that filter: what is read instead. */
  without: BrowseUri;
}

/**
 * The filter of this address sent as a comma list of values it declares, where the listing takes
 * one at a time: set CC's `helpdesk://tickets?priority=urgent,high` was refused ("must be one
 * of"), and the model read every ticket next. Null where no filter is, or a part is no declared
 * value (the route's own refusal then names them).
 */
export function severalValues(route: RouteDefinition, uri: BrowseUri): SeveralValues | null {
  for (const [key, raw] of Object.entries(uri.query)) {
    const spec = route.filters?.[key];
    if (!Array.isArray(spec) || !raw.includes(",")) continue;
    const values = [...new Set(raw.split(",").map((v) => v.trim()))];
    if (values.length > MOST || !values.every((v) => spec.includes(v))) return null;
    const query = Object.fromEntries(Object.entries(uri.query).filter(([k]) => k !== key));
    const without = { ...uri, query, uri: formatBrowseUri(uri.scheme, uri.segments, query) };
    return { key, values, without };
  }
  return null;
}

/**
 * The listing read without the filter, cut to the rows holding one of the values, said in one
 * line; null (the address is refused as before) where the listing has more pages than this one
 * (their rows are unread) or its table does not show the filter's column.
 */
export function rowsOfValues(body: PageBody, several: SeveralValues): PageBody | null {
  if (body.outcome !== "applied" || typeof body.total !== "number" || body.rows !== body.total) return null;
  const lines = body.markdown.split("\n");
  const table = firstTable(lines);
  const said = (kept: number, of: number) =>
    `Only rows with ${code(several.key)} ${several.values.join(" or ")}: ${kept} of the ${of} (the listing takes one ${code(several.key)} at a time; every row was read, all on this page).`;
  // No row at all without the filter: none with any of its values either (review 63b: refused).
  if (!table && body.total === 0) return { ...body, markdown: `${said(0, 0)}\n\n${body.markdown}` };
  const at = table?.names.indexOf(several.key) ?? -1;
  if (!table || at < 0) return null;
  const wanted = new Set(several.values);
  const rows = lines.slice(table.head + 2, table.end);
  const kept = rows.filter((l) => wanted.has(cellValue(cells(l)[at] ?? "")));
  const cut = withKeptRows(body, table, kept);
  return { ...cut, markdown: `${said(kept.length, rows.length)}\n\n${cut.markdown}` };
}
