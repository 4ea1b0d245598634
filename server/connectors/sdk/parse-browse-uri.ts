/**
 * A scheme as a URI may spell it. Which schemes exist is the route table's business (the
 * connectors register them); an unknown one is a not-found page, never an exception.
 */
export const SCHEME_PATTERN = /^[a-z][a-z0-9]{1,29}$/;
/** Schemes of the web and the file system: never a page, whatever a connector calls itself. */
export const FOREIGN_SCHEMES = ["http", "https", "file", "ftp", "data", "javascript", "mailto", "ws", "wss"];

export interface BrowseUri {
  scheme: string;
  /** Path segments, each `[A-Za-z0-9_.-]` without `..`. */
  segments: string[];
  query: Record<string, string>;
  /** Canonical form: `scheme://a/b?k=v` with sorted query keys. */
  uri: string;
}

export type ParsedBrowseUri = { ok: true; value: BrowseUri } | { ok: false; problem: string };

/** One path segment or id a link may carry: no slashes, no spaces, at most 100 characters. */
export const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
// Query keys as APIs name their parameters (`per_page`, `pageSize`, `sort.by`); never a path.
const QUERY_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/;
const MAX_URI = 1000;

/**
 * Parses `scheme://path?query` strictly. The checks exist because `navigate(uri)` is a
 * model-controlled string: traversal (`..`), encoded separators (`%2F`, `%2e`), backslashes,
 * empty segments and other schemes must never reach a route or an upstream URL.
 */
export function parseBrowseUri(input: string): ParsedBrowseUri {
  if (typeof input !== "string" || input.length === 0) return { ok: false, problem: "empty URI" };
  if (input.length > MAX_URI) return { ok: false, problem: "URI too long" };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\s\\\u0000-\u001f\u007f]/.test(input))
    return { ok: false, problem: "whitespace or control characters" };
  const match = /^([a-z][a-z0-9]*):\/\/([^?#]*)(?:\?([^#]*))?$/.exec(input);
  if (!match) return { ok: false, problem: "not a scheme://path URI" };
  const [, scheme = "", path = "", rawQuery] = match;
  if (!SCHEME_PATTERN.test(scheme) || FOREIGN_SCHEMES.includes(scheme))
    return { ok: false, problem: `unknown scheme ${scheme.slice(0, 30)}` };
  if (path.includes("%")) return { ok: false, problem: "encoded characters are not allowed in paths" };
  const trimmed = path.replace(/\/$/, "");
  const segments = trimmed === "" ? [] : trimmed.split("/");
  for (const segment of segments) {
    if (segment === "." || segment === ".." || segment.includes(".."))
      return { ok: false, problem: "path traversal" };
    if (!SEGMENT.test(segment))
      return { ok: false, problem: `invalid path segment "${segment.slice(0, 40)}"` };
  }
  const query: Record<string, string> = {};
  if (rawQuery) {
    for (const pair of rawQuery.split("&")) {
      if (pair === "") continue;
      const eq = pair.indexOf("=");
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let value: string;
      try {
        value = eq === -1 ? "" : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, " "));
      } catch {
        return { ok: false, problem: "malformed query encoding" };
      }
      if (!QUERY_KEY.test(key)) return { ok: false, problem: `invalid query key "${key.slice(0, 40)}"` };
      if (value.length > 500) return { ok: false, problem: "query value too long" };
      query[key] = value;
    }
  }
  return {
    ok: true,
    value: { scheme, segments, query, uri: formatBrowseUri(scheme, segments, query) },
  };
}

/**
 * `encodeURIComponent` plus the characters it leaves alone that markdown reads as structure
 * (`(`, `)` end a link's destination; `!`, `'`, `*`): a canonical URI is safe inside `[…](…)`.
 */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function formatBrowseUri(
  scheme: string,
  segments: string[],
  query: Record<string, string> = {},
): string {
  const keys = Object.keys(query)
    .filter((key) => query[key] !== undefined && query[key] !== "")
    .sort();
  const qs = keys.map((key) => `${key}=${encodeQueryValue(query[key] ?? "")}`).join("&");
  return `${scheme}://${segments.join("/")}${qs ? `?${qs}` : ""}`;
}
