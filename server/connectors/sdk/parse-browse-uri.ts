/**
 * A scheme as a URI may spell it. Which schemes exist is the route table's business (the
 * connectors register them); an unknown one is a not-found page, never an exception.
 */
export const SCHEME_PATTERN = /^[a-z][a-z0-9]{1,29}$/;
/** Schemes of the web and the file system: never a page, whatever a connector calls itself. */
export const FOREIGN_SCHEMES = ["http", "https", "file", "ftp", "data", "javascript", "mailto", "ws", "wss"];

export interface BrowseUri {
  scheme: string;
  /**
   * Path segments in canonical form: `[A-Za-z0-9_.-]` as they are, every other character
   * percent-encoded (UTF-8, upper-case hex), never `..`, `/` or `\\` (see `segmentValue`).
   */
  segments: string[];
  query: Record<string, string>;
  /** Canonical form: `scheme://a/b?k=v` with sorted query keys. */
  uri: string;
}

export type ParsedBrowseUri = { ok: true; value: BrowseUri } | { ok: false; problem: string };

/** One path segment or id a link may carry: no slashes, no spaces, at most 100 characters. */
export const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
// A segment as a URI may spell it: unreserved characters and percent-escapes.
const RAW_SEGMENT = /^(?:[A-Za-z0-9_.~-]|%[0-9A-Fa-f]{2})+$/;
const PLAIN = /^[A-Za-z0-9_.-]$/;
/** The longest value one segment may stand for (decoded). */
const MAX_SEGMENT_VALUE = 200;

/**
 * Why a value cannot be one path segment, or null. A segment stands for a value of any
 * characters (a negative id, a name with spaces or `?`) except what could move a path: `/`,
 * `\\`, `.`/`..` or a `..` inside, and control characters.
 */
function segmentValueProblem(value: string): string | null {
  if (value === "") return `invalid path segment ""`;
  if (value.length > MAX_SEGMENT_VALUE) return "path segment too long";
  if (value === "." || value.includes("..")) return "path traversal";
  if (/[/\\]/.test(value)) return "a path segment cannot hold / or \\";
  if (/\p{Cc}/u.test(value)) return "whitespace or control characters";
  return null;
}

/**
 * A value as one canonical path segment (`-5` → `-5`, `My file?` → `My%20file%3F`), or null when
 * it cannot be one (see above). Every URI that names the value spells it this way, so one rule
 * or link covers it whatever spelling an agent used.
 */
export function encodeSegment(value: string): string | null {
  if (segmentValueProblem(value)) return null;
  let out = "";
  for (const ch of value) {
    // A leading `.` is encoded: no segment reads as a dot-segment or a hidden name.
    if (PLAIN.test(ch) && !(out === "" && ch === ".")) out += ch;
    else
      for (const byte of new TextEncoder().encode(ch))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The value a canonical segment stands for (`My%20file%3F` → `My file?`). */
export function segmentValue(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A segment that is its own canonical form: plain characters, not starting with `.` (nor `..`). */
const CANONICAL_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

function canonicalSegment(raw: string): { ok: true; segment: string } | { ok: false; problem: string } {
  // Most segments are ids and route words already in canonical form: nothing to decode, check or
  // encode (each link of a page is parsed, and this was most of a parse).
  if (raw.length <= MAX_SEGMENT_VALUE && CANONICAL_SEGMENT.test(raw) && !raw.includes(".."))
    return { ok: true, segment: raw };
  if (!RAW_SEGMENT.test(raw)) return { ok: false, problem: `invalid path segment "${raw.slice(0, 40)}"` };
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return { ok: false, problem: "malformed path encoding" };
  }
  const problem = segmentValueProblem(value);
  return problem ? { ok: false, problem } : { ok: true, segment: encodeSegment(value) as string };
}
// Query keys as APIs name their parameters (`per_page`, `pageSize`, `sort.by`); never a path.
const QUERY_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/;
const MAX_URI = 1000;

/**
 * Parses `scheme://path?query` strictly. The checks exist because `navigate(uri)` is a
 * model-controlled string: traversal (`..`, also encoded), separators (`/` or `\\`, also encoded),
 * control characters, empty segments and other schemes must never reach a route or an upstream
 * URL. A segment may percent-encode any other character (an id with a space or `?`); it is kept
 * in canonical form (`encodeSegment`), and a route reads the value with `segmentValue`.
 */
export function parseBrowseUri(input: string): ParsedBrowseUri {
  if (typeof input !== "string" || input.length === 0) return { ok: false, problem: "empty URI" };
  if (input.length > MAX_URI) return { ok: false, problem: "URI too long" };
  // A plain space in the query is the value a person typed (`?q=log in`): it is taken as `%20`.
  // Anywhere else, and any other whitespace or control character, still refuses the URI.
  const queryAt = input.indexOf("?");
  const spaced = queryAt === -1 ? input : input.slice(0, queryAt) + input.slice(queryAt).replace(/ /g, "%20");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\s\\\u0000-\u001f\u007f]/.test(spaced))
    return { ok: false, problem: "whitespace or control characters" };
  const match = /^([a-z][a-z0-9]*):\/\/([^?#]*)(?:\?([^#]*))?$/.exec(spaced);
  if (!match) return { ok: false, problem: "not a scheme://path URI" };
  const [, scheme = "", path = "", rawQuery] = match;
  if (!SCHEME_PATTERN.test(scheme) || FOREIGN_SCHEMES.includes(scheme))
    return { ok: false, problem: `unknown scheme ${scheme.slice(0, 30)}` };
  const trimmed = path.replace(/\/$/, "");
  const segments: string[] = [];
  for (const raw of trimmed === "" ? [] : trimmed.split("/")) {
    if (raw === "." || raw === ".." || raw.includes("..")) return { ok: false, problem: "path traversal" };
    const canonical = canonicalSegment(raw);
    if (!canonical.ok) return canonical;
    segments.push(canonical.segment);
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
