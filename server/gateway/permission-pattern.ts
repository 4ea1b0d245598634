// stays-whole: one grammar, one matcher: parsing a pattern and the NFA that matches it are proved together.
import { routeTable } from "../browse/browse-routes";
import { PERMISSION_REQUEST_ROUTE } from "../browse/signpost-routes";
import { connectors } from "../connectors/connector-registry";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { formatBrowseUri, parseBrowseUri, SCHEME_PATTERN } from "../connectors/sdk/parse-browse-uri";

/**
 * The one permission grammar: what a rule's pattern may say, what a target looks like, and how
 * the two are matched. The console validates with it when a rule is saved, the gateway matches
 * with it when a call is authorized, and the console's checker canonicalizes its question with
 * it — so an admin, the checker and the enforcer read a pattern the same way.
 *
 *   pattern  := "*" | "**"                       everything
 *             | "capability:" id-glob            capability ids: [a-z0-9_], `*` any run
 *             | scheme "://" path-glob           scheme: one Signpost serves
 *             | "search:" (scheme | "*")         browse search in one scheme (or all)
 *             | "capabilities"                   the capability catalog (search_capabilities)
 *   path-glob: characters a canonical URI has, `*` = any run of characters but `/`,
 *              `**` = any run of characters; no `***`, no whitespace, at most 300 characters.
 *
 * A bare capability id (`checkout`) is normalized to `capability:checkout`; anything else that
 * fits none of the forms is refused with a message naming what is wrong.
 *
 * Matching never builds a regular expression from a pattern or a target (a stored pattern
 * like `**a**a**a!` against an agent's long target made a backtracking engine spin for
 * seconds): it simulates the pattern's NFA, O(target length × pattern length) in the worst case.
 */

export const MAX_PATTERN_LENGTH = 300;

/** What Signpost serves: the registries the grammar checks names against. */
export interface PermissionVocabulary {
  schemes: readonly string[];
  capabilityIds: readonly string[];
  /** Route patterns (`shop://order/{id}`) a rule can take effect on. */
  routes: readonly string[];
}

const servedFor = new WeakMap<readonly AnyConnector[], PermissionVocabulary>();

/**
 * The served vocabulary, read from the browse route table and the connector catalog (never a
 * list of its own). The permission-request form is left out: it is never authorized, so that a
 * denied agent can always ask, and a rule on it would do nothing.
 */
export function servedVocabulary(among: readonly AnyConnector[] = connectors()): PermissionVocabulary {
  const cached = servedFor.get(among);
  if (cached) return cached;
  const routes = routeTable(among)
    .map((r) => r.pattern)
    .filter((p) => p !== PERMISSION_REQUEST_ROUTE.pattern);
  const schemes = new Set([...routes.map((p) => p.split("://")[0] ?? ""), ...among.map((c) => c.scheme)]);
  schemes.delete("");
  const served = {
    schemes: [...schemes],
    capabilityIds: among.flatMap((c) => c.capabilities.map((cap) => cap.id)),
    routes,
  };
  servedFor.set(among, served);
  return served;
}

// ------------------------------------------------------------------------------------ matching

/** Token codes: a literal is its UTF-16 code unit (≥ 0). */
const STAR = -1; // any run of characters but `/`
const GLOBSTAR = -2; // any run of characters
const SLASH = 47;

/** A pattern compiled for matching: one token per literal character or wildcard. */
export type CompiledPattern = Int32Array;

/** Compiles a glob (already validated: no `***`). */
export function compileGlob(glob: string): CompiledPattern {
  const tokens: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob.charCodeAt(i) !== 42) tokens.push(glob.charCodeAt(i));
    else if (glob.charCodeAt(i + 1) === 42) {
      tokens.push(GLOBSTAR);
      i++;
    } else tokens.push(STAR);
  }
  return Int32Array.from(tokens);
}

/** Optional work counter: the matcher adds one per (character, live state) it visits. */
export interface MatchCounter {
  steps: number;
}

/** Adds to `states` every state reachable without consuming a character (a wildcard may match nothing). */
function close(tokens: CompiledPattern, states: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++) {
    if (states[i] && (tokens[i] as number) < 0) states[i + 1] = 1;
  }
}

/**
 * Whether the compiled glob matches the whole target. Thompson-style simulation: the set of
 * pattern positions alive after each character, so each character costs at most one visit per
 * token — O(|target| × |pattern|), whatever the pattern or target.
 */
export function globMatches(tokens: CompiledPattern, target: string, counter?: MatchCounter): boolean {
  const n = tokens.length;
  let current = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  current[0] = 1;
  close(tokens, current);
  for (let k = 0; k < target.length; k++) {
    const c = target.charCodeAt(k);
    next.fill(0);
    let alive = false;
    for (let i = 0; i < n; i++) {
      if (!current[i]) continue;
      if (counter) counter.steps++;
      const t = tokens[i] as number;
      if (t >= 0) {
        if (t === c) {
          next[i + 1] = 1;
          alive = true;
        }
      } else if (t === GLOBSTAR || c !== SLASH) {
        next[i] = 1;
        alive = true;
      }
    }
    if (!alive) return false;
    close(tokens, next);
    [current, next] = [next, current];
  }
  return current[n] === 1;
}

// Stored patterns are compiled once per process, not on every authorization; bounded so that
// many distinct patterns cannot grow it without end.
const compiled = new Map<string, CompiledPattern | null>();
const COMPILED_CACHE_LIMIT = 2000;

function compiledStored(pattern: string): CompiledPattern | null {
  const hit = compiled.get(pattern);
  if (hit !== undefined) return hit;
  const parsed = parsePermissionPattern(pattern, { check: "syntax" });
  const value = parsed.ok && parsed.kind !== "everything" ? compileGlob(parsed.pattern) : null;
  if (compiled.size >= COMPILED_CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, value);
  return value;
}

/**
 * Whether a stored rule pattern covers a canonical target. A pattern the grammar refuses (a
 * row older than the validation) matches nothing; the console lists it with its problem.
 */
export function permissionPatternMatches(pattern: string, target: string, counter?: MatchCounter): boolean {
  const trimmed = pattern.trim();
  if (trimmed === "*" || trimmed === "**") return true;
  const tokens = compiledStored(trimmed);
  return tokens ? globMatches(tokens, target, counter) : false;
}

// ------------------------------------------------------------------------------------ patterns

export type PatternKind = "everything" | "capability" | "uri" | "search" | "catalog";

export type ParsedPattern = { ok: true; pattern: string; kind: PatternKind } | { ok: false; problem: string };

const ID_GLOB = /^[a-z0-9_*]+$/;
const ID = /^[a-z0-9_]+$/;
// Characters a canonical target can hold after `scheme://`: path segments are [A-Za-z0-9_.-],
// queries `k=v&…` with values as encodeURIComponent writes them (`*` itself is sent as %2A).
const PATH_CHARS = /^[A-Za-z0-9_.\-/?=&%!~'()*]*$/;

function fail(problem: string): ParsedPattern {
  return { ok: false, problem };
}

const list = (names: readonly string[]) => names.join(", ");

/**
 * Parses and validates a rule pattern; returns its canonical spelling (what is stored) or the
 * problem, in words an admin can act on. `check: "served"` (saving a rule) also refuses names
 * Signpost does not serve and patterns no target could ever match; `"syntax"` (reading stored
 * rows, granting a request's target) checks the form only.
 */
export function parsePermissionPattern(
  input: string,
  options: { check?: "served" | "syntax"; vocabulary?: PermissionVocabulary } = {},
): ParsedPattern {
  const vocabulary = options.vocabulary ?? servedVocabulary();
  const served = (options.check ?? "served") === "served";
  const pattern = input.trim();
  if (pattern === "") return fail("the pattern is empty");
  if (pattern.length > MAX_PATTERN_LENGTH)
    return fail(`the pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH}`);
  const space = pattern.search(/\s/);
  if (space !== -1)
    return fail(
      `the pattern contains whitespace at position ${space + 1}; a pattern is one URI or capability glob without spaces`,
    );
  if (pattern.includes("***"))
    return fail("the pattern contains ***; use * for any run within one path segment, ** for any depth");
  if (pattern === "*" || pattern === "**") return { ok: true, pattern, kind: "everything" };
  if (pattern === "capabilities") return { ok: true, pattern, kind: "catalog" };

  if (pattern.startsWith("capability:")) {
    const id = pattern.slice("capability:".length);
    if (id === "")
      return fail("capability: needs an id or a glob, e.g. capability:checkout or capability:track_*");
    if (!ID_GLOB.test(id))
      return fail(
        `capability ids are lowercase letters, digits and _ (with * as a wildcard); "${id}" is not`,
      );
    if (served) {
      const tokens = compileGlob(id);
      if (!vocabulary.capabilityIds.some((known) => globMatches(tokens, known)))
        return fail(
          id.includes("*")
            ? `capability:${id} matches no capability Signpost knows (${list(vocabulary.capabilityIds)})`
            : `there is no capability "${id}" (known: ${list(vocabulary.capabilityIds)})`,
        );
    }
    return { ok: true, pattern, kind: "capability" };
  }

  if (pattern.startsWith("search:")) {
    const scheme = pattern.slice("search:".length);
    if (scheme !== "*" && !SCHEME_PATTERN.test(scheme))
      return fail("search: takes one scheme or *, e.g. search:<scheme> or search:*");
    if (served && scheme !== "*" && !vocabulary.schemes.includes(scheme))
      return fail(`unknown scheme "${scheme}" (Signpost serves ${list(vocabulary.schemes)})`);
    return { ok: true, pattern, kind: "search" };
  }

  const sep = pattern.indexOf("://");
  if (sep !== -1) {
    const scheme = pattern.slice(0, sep);
    let path = pattern.slice(sep + 3);
    if (!SCHEME_PATTERN.test(scheme))
      return fail(
        `"${scheme.slice(0, 40)}" is not a scheme; schemes are lowercase letters and digits (${list(vocabulary.schemes)})`,
      );
    if (served && !vocabulary.schemes.includes(scheme))
      return fail(`unknown scheme "${scheme}" (Signpost serves ${list(vocabulary.schemes)})`);
    if (/[{}]/.test(path))
      return fail(
        "{…} is a route placeholder, not a pattern: use * for one path segment, e.g. <scheme>://<page>/*/<form>",
      );
    if (!PATH_CHARS.test(path)) {
      const bad = [...path].find((ch) => !PATH_CHARS.test(ch)) ?? "?";
      return fail(`the character "${bad}" cannot occur in a Signpost URI`);
    }
    if (path.includes("?"))
      return fail("a rule covers a page whatever its query: leave out ?… (the query is not matched)");
    if (path.startsWith("/") || path.includes("//")) return fail("the path has an empty segment (//)");
    // Targets are canonical URIs, which never end in `/`: `shop://orders/` means `shop://orders`.
    if (path.endsWith("/")) path = path.slice(0, -1);
    const canonical = `${scheme}://${path}`;
    if (
      served &&
      !vocabulary.routes.some((route) => globsIntersect(compileGlob(canonical), routeGlob(route)))
    )
      return fail(
        `${canonical} matches no page Signpost serves (pages under ${scheme}://: ${list(vocabulary.routes.filter((r) => r.startsWith(`${scheme}://`)))})`,
      );
    return { ok: true, pattern: canonical, kind: "uri" };
  }

  if (ID.test(pattern)) {
    if (vocabulary.capabilityIds.includes(pattern))
      return { ok: true, pattern: `capability:${pattern}`, kind: "capability" };
    return fail(
      `"${pattern}" is neither a capability id (${list(vocabulary.capabilityIds)}) nor a pattern; write capability:<id>, <scheme>://<path> or *`,
    );
  }
  if (ID_GLOB.test(pattern))
    return fail(`"${pattern}" is not a pattern; for capabilities write capability:${pattern}`);
  return fail(
    `"${pattern.slice(0, 60)}" is not a pattern; write *, capability:<id>, <scheme>://<path> (schemes: ${list(vocabulary.schemes)}), search:<scheme> or capabilities`,
  );
}

// A route pattern as a glob over targets: `{param}` is one segment (at least one character),
// and any query may follow. Only used to refuse a rule that could match no page.
const NONEMPTY_STAR = -3;
const QUERY_TAIL = -4;

function routeGlob(route: string): CompiledPattern {
  const tokens: number[] = [];
  for (let i = 0; i < route.length; i++) {
    if (route[i] === "{") {
      const end = route.indexOf("}", i);
      tokens.push(NONEMPTY_STAR);
      i = end === -1 ? route.length : end;
    } else tokens.push(route.charCodeAt(i));
  }
  tokens.push(QUERY_TAIL);
  return Int32Array.from(tokens);
}

/**
 * Whether some target matches both globs: a search over pairs of positions (product automaton),
 * at most |a| × |b| pairs. Character classes: a literal, "not /", "anything"; a route's `{param}`
 * is "not /" at least once, its query tail "nothing, or ? then no /" (a canonical query encodes
 * `/` as %2F).
 */
function globsIntersect(a: CompiledPattern, b: CompiledPattern): boolean {
  type Move = { cls: "lit" | "noslash" | "any"; ch: number; to: number };
  const expand = (tokens: CompiledPattern) => {
    const states: { moves: Move[]; eps: number[]; accept: boolean }[] = [];
    const add = () => states.push({ moves: [], eps: [], accept: false }) - 1;
    let cur = add();
    for (const t of tokens) {
      const nxt = add();
      const s = states[cur] as (typeof states)[number];
      if (t >= 0) s.moves.push({ cls: "lit", ch: t, to: nxt });
      else if (t === STAR || t === GLOBSTAR) {
        s.moves.push({ cls: t === STAR ? "noslash" : "any", ch: 0, to: cur });
        s.eps.push(nxt);
      } else if (t === NONEMPTY_STAR) {
        const loop = add();
        s.moves.push({ cls: "noslash", ch: 0, to: loop });
        const l = states[loop] as (typeof states)[number];
        l.moves.push({ cls: "noslash", ch: 0, to: loop });
        l.eps.push(nxt);
      } else if (t === QUERY_TAIL) {
        s.eps.push(nxt);
        const tail = add();
        s.moves.push({ cls: "lit", ch: 63, to: tail });
        const q = states[tail] as (typeof states)[number];
        q.moves.push({ cls: "noslash", ch: 0, to: tail });
        q.eps.push(nxt);
      }
      cur = nxt;
    }
    (states[cur] as (typeof states)[number]).accept = true;
    return states;
  };
  const A = expand(a);
  const B = expand(b);
  const meet = (x: Move, y: Move): number | null => {
    // The one character both can consume, or -1 for "some non-slash character", null for none.
    if (x.cls === "lit" && y.cls === "lit") return x.ch === y.ch ? x.ch : null;
    if (x.cls === "lit") return y.cls === "any" || x.ch !== SLASH ? x.ch : null;
    if (y.cls === "lit") return x.cls === "any" || y.ch !== SLASH ? y.ch : null;
    return -1;
  };
  const seen = new Set<number>();
  const stack: [number, number][] = [[0, 0]];
  while (stack.length) {
    const [i, j] = stack.pop() as [number, number];
    const key = i * B.length + j;
    if (seen.has(key)) continue;
    seen.add(key);
    const sa = A[i] as (typeof A)[number];
    const sb = B[j] as (typeof B)[number];
    if (sa.accept && sb.accept) return true;
    for (const e of sa.eps) stack.push([e, j]);
    for (const e of sb.eps) stack.push([i, e]);
    for (const x of sa.moves) for (const y of sb.moves) if (meet(x, y) !== null) stack.push([x.to, y.to]);
  }
  return false;
}

// ------------------------------------------------------------------------------------ targets

export type CanonicalTarget =
  | { ok: true; target: string; capabilityId?: string }
  | { ok: false; problem: string };

/**
 * The one spelling of what a call is authorized against, used by the gateway for every call
 * and by the console's checker for every question, so both ask the matcher the same thing:
 * `capability:<id>` (a bare known id means the same), a browse URI in its canonical form
 * (sorted query, no trailing `/`, a literal `*` written %2A so only patterns have wildcards),
 * `search:<scheme>` / `search:*`, `capabilities`, or `action:<id>` (an action the gateway could
 * not place under a capability).
 */
export function canonicalPermissionTarget(
  input: string,
  vocabulary: PermissionVocabulary = servedVocabulary(),
): CanonicalTarget {
  // Every call canonicalizes its target, mostly one an earlier call already did (the same order,
  // the same page): a pure function of the text and the vocabulary, whose object is new whenever
  // the served connectors change, so its answers are kept with it.
  let known = canonicalized.get(vocabulary);
  if (!known) {
    known = new Map();
    canonicalized.set(vocabulary, known);
  }
  const hit = known.get(input);
  if (hit) return hit;
  const canonical = canonicalize(input, vocabulary);
  if (known.size >= MAX_CANONICALIZED) known.clear();
  known.set(input, canonical);
  return canonical;
}

/** Targets whose canonical form each vocabulary keeps (all dropped at once past this). */
const MAX_CANONICALIZED = 2000;
const canonicalized = new WeakMap<PermissionVocabulary, Map<string, CanonicalTarget>>();

function canonicalize(input: string, vocabulary: PermissionVocabulary): CanonicalTarget {
  const raw = input.trim();
  if (raw === "") return { ok: false, problem: "the target is empty" };
  if (raw === "capabilities") return { ok: true, target: raw };
  if (raw.startsWith("capability:") || ID.test(raw)) {
    const id = raw.startsWith("capability:") ? raw.slice("capability:".length) : raw;
    if (!ID.test(id)) return { ok: false, problem: `"${id.slice(0, 60)}" is not a capability id` };
    if (raw === id && !vocabulary.capabilityIds.includes(id))
      return {
        ok: false,
        problem: `"${id}" is neither a capability id (${list(vocabulary.capabilityIds)}) nor a URI`,
      };
    return { ok: true, target: `capability:${id}`, capabilityId: id };
  }
  if (raw.startsWith("search:")) {
    const scheme = raw.slice("search:".length);
    if (scheme === "*" || SCHEME_PATTERN.test(scheme)) return { ok: true, target: raw };
    return { ok: false, problem: "search: takes one scheme or *" };
  }
  if (raw.startsWith("action:")) {
    const id = raw.slice("action:".length);
    return /^[A-Za-z0-9_-]{1,64}$/.test(id)
      ? { ok: true, target: raw }
      : { ok: false, problem: "action: takes an action id" };
  }
  const parsed = parseBrowseUri(raw);
  if (!parsed.ok) return { ok: false, problem: `not a target: ${parsed.problem}` };
  // A rule covers a page whatever its query: `?page=2` or `?x=1` is the same resource, so the
  // query is no part of what is authorized (else any query slipped past an exact deny).
  const { scheme, segments } = parsed.value;
  return { ok: true, target: formatBrowseUri(scheme, segments).replaceAll("*", "%2A") };
}
