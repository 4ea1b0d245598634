import type { ApiOperation, ApiParameter } from "./api-operations";

/** How a listing operation pages, read from its documented query parameters. */
export type Pagination =
  | { kind: "page"; pageParam: string; sizeParam?: string; zeroBased: boolean }
  | { kind: "offset"; offsetParam: string; limitParam: string }
  | { kind: "cursor"; cursorParam: string; sizeParam?: string }
  | { kind: "none"; sizeParam?: string };

const PAGE = ["page", "pagenumber", "page_number", "pagenum", "page_no"];
const SIZE = [
  "per_page",
  "perpage",
  "page_size",
  "pagesize",
  "limit",
  "size",
  "count",
  "max_results",
  "maxresults",
  "top",
];
const OFFSET = ["offset", "skip", "start"];
const CURSOR = [
  "cursor",
  "after",
  "starting_after",
  "page_token",
  "pagetoken",
  "next_token",
  "nexttoken",
  "continuation",
  "continuationtoken",
  "marker",
  "next",
];

/** Query values a browse listing URI holds for paging, never sent as filters. */
export const PAGING_KEYS = ["page", "per_page", "cursor"] as const;
/** Rows asked for when the caller names none. */
export const DEFAULT_PER_PAGE = 20;

function find(params: ApiParameter[], names: string[]): ApiParameter | undefined {
  return params.find((p) => p.in === "query" && names.includes(p.name.toLowerCase()));
}

export function paginationOf(op: ApiOperation): Pagination {
  const size = find(op.parameters, SIZE);
  const page = find(op.parameters, PAGE);
  if (page) {
    const zeroBased =
      page.schema.minimum === 0 || page.schema.default === 0 || /\b(zero|0)-based\b/i.test(page.description);
    return { kind: "page", pageParam: page.name, sizeParam: size?.name, zeroBased };
  }
  const offset = find(op.parameters, OFFSET);
  if (offset && size) return { kind: "offset", offsetParam: offset.name, limitParam: size.name };
  const cursor = find(op.parameters, CURSOR);
  if (cursor) return { kind: "cursor", cursorParam: cursor.name, sizeParam: size?.name };
  return { kind: "none", sizeParam: size?.name };
}

/** The documented parameters paging uses (they are not offered as filters). */
export function pagingParams(p: Pagination): string[] {
  switch (p.kind) {
    case "page":
      return [p.pageParam, p.sizeParam].filter((x): x is string => !!x);
    case "offset":
      return [p.offsetParam, p.limitParam];
    case "cursor":
      return [p.cursorParam, p.sizeParam].filter((x): x is string => !!x);
    case "none":
      return p.sizeParam ? [p.sizeParam] : [];
  }
}

/** The upstream query for browse page `page` (1-based), `per_page` rows, or a cursor. */
export function pagingQuery(
  p: Pagination,
  page: number,
  perPage: number,
  cursor?: string,
): Record<string, number | string> {
  switch (p.kind) {
    case "page":
      return {
        [p.pageParam]: p.zeroBased ? page - 1 : page,
        ...(p.sizeParam ? { [p.sizeParam]: perPage } : {}),
      };
    case "offset":
      return { [p.offsetParam]: (page - 1) * perPage, [p.limitParam]: perPage };
    case "cursor":
      return {
        ...(cursor ? { [p.cursorParam]: cursor } : {}),
        ...(p.sizeParam ? { [p.sizeParam]: perPage } : {}),
      };
    case "none":
      return p.sizeParam ? { [p.sizeParam]: perPage } : {};
  }
}

const CURSOR_VALUE = /^[A-Za-z0-9_\-=.~+/:]{1,400}$/;
type Body = Record<string, unknown>;

function at(body: unknown, path: string[]): unknown {
  let value = body;
  for (const key of path) value = value && typeof value === "object" ? (value as Body)[key] : undefined;
  return value;
}

/** The cursor parameter's value in a next-page URL the API gave, if it is one. */
function cursorFromUrl(value: unknown, param: string): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return new URL(value, "http://x.invalid").searchParams.get(param) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether there is a next page, and what points at it: for page and offset paging a number
 * (from `next_page`, totals, `lastPage`, or a full page of rows), for cursor paging the next
 * cursor from the body's conventional places or the Link header. A cursor is only used when it
 * is plain token text, and the same cursor twice ends the listing (an API that repeats its
 * last token would otherwise page forever).
 */
export function nextPage(
  p: Pagination,
  answer: { body: unknown; link: string | null },
  rows: number,
  page: number,
  perPage: number,
  cursor?: string,
): { page?: number; cursor?: string } | null {
  const body = answer.body;
  if (p.kind === "cursor") {
    const candidates = [
      at(body, ["next_cursor"]),
      at(body, ["nextCursor"]),
      at(body, ["next_page_token"]),
      at(body, ["nextPageToken"]),
      at(body, ["cursor", "next"]),
      at(body, ["meta", "next_cursor"]),
      at(body, ["pagination", "next_cursor"]),
      cursorFromUrl(at(body, ["links", "next"]), p.cursorParam),
      cursorFromUrl(at(body, ["next"]), p.cursorParam),
      cursorFromUrl(/<([^>]{1,2000})>\s*;\s*rel="?next"?/.exec(answer.link ?? "")?.[1], p.cursorParam),
    ];
    const next = candidates.find((c): c is string => typeof c === "string" && CURSOR_VALUE.test(c));
    return next && next !== cursor ? { cursor: next } : null;
  }
  if (p.kind === "none") return null;
  // `next_page: null` is an answer ("no more"), not a missing field.
  const explicitKey = ["next_page", "nextPage"].find(
    (k) => body && typeof body === "object" && k in (body as Body),
  );
  const explicit = explicitKey ? at(body, [explicitKey]) : undefined;
  if (explicit === null || explicit === false) return null;
  if (typeof explicit === "number") return explicit > page ? { page: page + 1 } : null;
  const last = at(body, ["page", "lastPage"]) ?? at(body, ["lastPage"]) ?? at(body, ["last_page"]);
  if (typeof last === "boolean") return last ? null : { page: page + 1 };
  const total = [
    at(body, ["total"]),
    at(body, ["total_count"]),
    at(body, ["totalCount"]),
    at(body, ["page", "totalElements"]),
  ].find((t): t is number => typeof t === "number");
  if (total !== undefined) return page * perPage < total ? { page: page + 1 } : null;
  if (at(body, ["has_more"]) === false || at(body, ["hasMore"]) === false) return null;
  return rows >= perPage && rows > 0 ? { page: page + 1 } : null;
}
