import { connectors } from "../connectors/connector-registry";
import type { BrowseBackend, BrowseVerb, OutcomeKindLike, Row } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { recordLink, withPageScope } from "../connectors/sdk/page-scope";
import { formatBrowseUri, parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { SystemUnavailableError } from "../connectors/sdk/system-errors";
import { logger } from "../logger";
import {
  matchRoute,
  type PageBody,
  type RouteDefinition,
  routeTable,
  routeVisibleTo,
  startPoints,
} from "./browse-routes";

/** One browse answer: markdown for the model, plus the structured facts a host can use. */
export interface BrowsePage {
  uri: string;
  title: string;
  outcome: OutcomeKindLike;
  markdown: string;
  /** The links the route rendered, in order: made by `link()`, never read back out of the text. */
  links: string[];
}

/**
 * Renders one page in its own page scope: the body, its heading, and the links `link()` created
 * while they were built. What is shown passes the backend's redaction once more as a whole
 * (title, URI, text), for any echo that did not go through an escaping helper.
 */
async function renderPage(
  backend: BrowseBackend,
  uri: string,
  build: () => PageBody | Promise<PageBody>,
): Promise<{ page: BrowsePage; body: PageBody }> {
  const { value, links } = await withPageScope(backend.redact, async () => {
    const body = await build();
    return { body, heading: `# ${escapeText(body.title)}` };
  });
  const { body, heading } = value;
  const page: BrowsePage = {
    uri: backend.redact(uri),
    title: backend.redact(body.title),
    outcome: body.outcome,
    markdown: backend.redact(`${heading}\n\n${body.markdown}\n`),
    links,
  };
  return { page, body };
}

/**
 * Start points this caller may see (admin-only pages are never offered to anyone else),
 * bounded: those of `scheme`'s connector when it has one, else the start page's.
 */
function startLinks(backend: BrowseBackend, among: readonly AnyConnector[], scheme?: string): string {
  const own = scheme && among.some((c) => c.scheme === scheme) ? scheme : undefined;
  const { routes, more } = startPoints(backend, among, own);
  const lines = routes.map((r) => `- ${link(r.title, r.pattern)} — ${r.description}`);
  if (own) lines.push(`- ${link("Start", "signpost://start")} — every system`);
  else if (more) lines.push(`- …and ${more} more connected systems: use \`search(query)\`.`);
  return lines.join("\n");
}

/** What the agent sent, as pages and audit rows may repeat it: redacted first, then cut. */
function echo(backend: BrowseBackend, input: string, max: number): string {
  return backend.redact(input).slice(0, max);
}

async function notFoundPage(input: string, problem: string, backend: BrowseBackend): Promise<BrowsePage> {
  const among = await backend.connectors();
  const { page } = await renderPage(backend, echo(backend, input, 200), () => ({
    title: "Not found",
    outcome: "not_found",
    markdown: `Nothing lives at ${code(echo(backend, input, 120))} (${escapeText(problem)}).\n\nStart from one of these:\n\n${startLinks(backend, among, /^([a-z][a-z0-9]*):\/\//.exec(input)?.[1])}\n\nOr use \`search(query)\`.`,
  }));
  return page;
}

function permissionDeniedBody(
  backend: BrowseBackend,
  uri: string,
  verb: BrowseVerb,
  decision: "deny" | "ask",
  message: string,
): PageBody {
  const shown = backend.redact(uri);
  const request = formatBrowseUri("signpost", ["permissions", "request"], { target: shown, verb });
  return {
    title: "Permission required",
    outcome: "rejected",
    markdown: `You may not ${verb} ${code(shown)}: ${escapeText(message)}${decision === "ask" ? " (an admin must allow it)" : ""}.\n\n${link("Ask an admin for this permission", request)}\n\n${link("Start", "signpost://start")}`,
  };
}

interface GuardedCall {
  verb: BrowseVerb;
  /** What permissions are checked on and the audit row names. */
  target: string;
  arguments: Record<string, unknown>;
  /** The page's own URI when it is not the target (a search's `search://all?q=…`). */
  pageUri?: string;
  /** The permission form itself must stay reachable, or a denied agent could never ask. */
  skipAuthorization?: boolean;
}

/** Authorizes, renders and audits one browse call; a denial or a failure is a page too. */
async function guarded(
  backend: BrowseBackend,
  call: GuardedCall,
  build: () => Promise<PageBody>,
): Promise<BrowsePage> {
  const { verb, target, skipAuthorization = false } = call;
  const uri = call.pageUri ?? target;
  const started = Date.now();
  let rendered: { page: BrowsePage; body: PageBody };
  try {
    const authorization = skipAuthorization
      ? { decision: "allow" as const }
      : await backend.authorize(verb, target);
    rendered =
      authorization.decision === "allow"
        ? await renderPage(backend, uri, build)
        : await renderPage(backend, uri, () =>
            permissionDeniedBody(backend, target, verb, authorization.decision, authorization.message),
          );
  } catch (error) {
    // Pages never throw at an agent. The backend already turns "the business system did not
    // answer" into a typed page, so what lands here is almost always a bug of ours: retrying
    // would fail the same way. Only an outage that still escaped (or a connector an admin
    // disabled, a subclass) stays retryable.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    logger.error({ verb, target: backend.redact(target), err: backend.redact(detail) }, "browse page failed");
    const outage = error instanceof SystemUnavailableError;
    rendered = await renderPage(backend, uri, () => ({
      title: outage ? "Temporarily unavailable" : "Failed",
      outcome: outage ? "temporarily_unavailable" : "rejected",
      markdown: outage
        ? `The business system did not answer while serving ${code(target)}. Try again shortly.\n\nReason: \`legacy_unavailable\` · Retryable: yes\n\n${link("Start", "signpost://start")}`
        : `Signpost failed while serving ${code(target)}; it was logged. Trying again will not help.\n\nReason: \`internal_error\` · Retryable: no\n\n${link("Start", "signpost://start")}`,
    }));
  }
  const { page, body } = rendered;
  await backend.record({
    verb,
    target,
    arguments: call.arguments,
    outcome: page.outcome,
    message: page.title,
    latencyMs: Date.now() - started,
    actionId: body.actionId,
    capability: body.capability,
  });
  return page;
}

/**
 * The backend as one connector's pages see it: its own adapter only. A connector's route or
 * record search asking for another connector's adapter (and so its credentials) gets a refusal.
 */
function ownBackend(backend: BrowseBackend, among: readonly AnyConnector[], scheme: string): BrowseBackend {
  const owner = among.find((c) => c.scheme === scheme)?.id;
  if (!owner) return backend;
  return {
    ...backend,
    withAdapter: (connector, run) =>
      connector === owner
        ? backend.withAdapter(connector, run)
        : Promise.resolve({
            outcome: "rejected",
            reason: "not_this_connector",
            message: `${owner}'s pages cannot use the ${connector} connector`,
            retryable: false,
            next_actions: [],
          }),
  };
}

/** `navigate(uri)`: the page at a URI, a form on form routes, a not-found page otherwise. */
export async function navigate(backend: BrowseBackend, input: string): Promise<BrowsePage> {
  const parsed = parseBrowseUri(input);
  if (!parsed.ok) {
    const page = await notFoundPage(input, parsed.problem, backend);
    const shown = echo(backend, input, 200);
    await backend.record({
      verb: "navigate",
      target: shown,
      arguments: { uri: shown },
      outcome: "not_found",
      message: parsed.problem,
      latencyMs: 0,
    });
    return page;
  }
  const uri = parsed.value;
  const among = await backend.connectors();
  const matched = matchRoute(uri, among);
  // A route the caller may not see answers exactly like one that does not exist.
  const found = matched && routeVisibleTo(matched.route, backend) ? matched : null;
  if (!found) {
    const page = await notFoundPage(uri.uri, "no such page", backend);
    await backend.record({
      verb: "navigate",
      target: uri.uri,
      arguments: { uri: uri.uri },
      outcome: "not_found",
      message: "no such page",
      latencyMs: 0,
    });
    return page;
  }
  return guarded(
    backend,
    {
      verb: "navigate",
      target: uri.uri,
      arguments: { uri: uri.uri },
      skipAuthorization: found.route.pattern === "signpost://permissions/request",
    },
    () => found.route.render(found.match, ownBackend(backend, among, uri.scheme)),
  );
}

/** `submit(uri, fields)`: starts or advances the capability behind the form. */
export async function submit(
  backend: BrowseBackend,
  input: string,
  fields: Record<string, unknown>,
): Promise<BrowsePage> {
  const parsed = parseBrowseUri(input);
  const notFound = async (target: string, problem: string) => {
    const shown = echo(backend, target, 200);
    await backend.record({
      verb: "submit",
      target: shown,
      arguments: { uri: shown },
      outcome: "not_found",
      message: problem,
      latencyMs: 0,
    });
    return notFoundPage(target, problem, backend);
  };
  if (!parsed.ok) return notFound(input, parsed.problem);
  const uri = parsed.value;
  const among = await backend.connectors();
  const matched = matchRoute(uri, among);
  const found = matched && routeVisibleTo(matched.route, backend) ? matched : null;
  if (!found) return notFound(uri.uri, "no such page");
  const { route, match } = found;
  if (!route.submit) {
    const { page } = await renderPage(backend, uri.uri, () => ({
      title: "Not a form",
      outcome: "rejected",
      markdown: `${code(uri.uri)} is a page, not a form: use \`navigate\`.\n\n${link(route.title, uri.uri)}`,
    }));
    return page;
  }
  const submitFn = route.submit;
  return guarded(
    backend,
    {
      verb: "submit",
      target: uri.uri,
      arguments: { uri: uri.uri, fields: redactFields(route.pattern, fields) },
      skipAuthorization: route.pattern === "signpost://permissions/request",
    },
    () => submitFn(match, fields, ownBackend(backend, among, uri.scheme)),
  );
}

/** Secret values never reach an audit row or a page. */
function redactFields(pattern: string, fields: Record<string, unknown>): Record<string, unknown> {
  if (!pattern.startsWith("config://")) return fields;
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === "value" ? "[redacted]" : v]));
}

// ---------------------------------------------------------------------------------------------
// Search: the URI structure (routes) as well as the data.
// ---------------------------------------------------------------------------------------------

function words(text: string): string[] {
  const lower = text.toLowerCase();
  const latin = lower.match(/[a-z0-9_]+/g) ?? [];
  const cjk = [...lower.matchAll(/[\u4e00-\u9fff]+/g)].flatMap((m) => {
    const s = m[0];
    const grams: string[] = [];
    for (let i = 0; i < s.length - 1; i++) grams.push(s.slice(i, i + 2));
    return s.length === 1 ? [s] : grams;
  });
  return [...latin.map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w)), ...cjk];
}

const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "me",
  "my",
  "i",
  "of",
  "for",
  "show",
  "list",
  "all",
  "find",
  "get",
  "with",
  "is",
  "are",
  "and",
  "or",
  "what",
  "which",
  "in",
  "on",
]);

const routeWords = new WeakMap<RouteDefinition, { hay: Set<string>; description: Set<string> }>();

/** A route's words, computed once: search runs over every route of every connector a tenant has. */
function wordsOf(route: RouteDefinition) {
  let cached = routeWords.get(route);
  if (!cached) {
    cached = {
      hay: new Set(words(`${route.title} ${route.pattern} ${route.keywords.join(" ")}`)),
      description: new Set(words(route.description)),
    };
    routeWords.set(route, cached);
  }
  return cached;
}

/**
 * The route table as an inverted index, built once per table: each word with the routes that
 * have it in their title, pattern or keywords (and, apart, in their description). A search then
 * scores only the routes its words name, not every route of fifty connected systems.
 */
const indexes = new WeakMap<RouteDefinition[], Map<string, RouteDefinition[]>>();

function routeIndex(table: RouteDefinition[]): Map<string, RouteDefinition[]> {
  let index = indexes.get(table);
  if (!index) {
    index = new Map();
    for (const route of table) {
      const { hay, description } = wordsOf(route);
      for (const word of new Set([...hay, ...description])) {
        const list = index.get(word);
        if (list) list.push(route);
        else index.set(word, [route]);
      }
    }
    indexes.set(table, index);
  }
  return index;
}

/** The routes any of the query's words name, in table order. */
function candidateRoutes(table: RouteDefinition[], query: string[]): RouteDefinition[] {
  const index = routeIndex(table);
  const found = new Set(query.flatMap((word) => index.get(word) ?? []));
  return table.filter((route) => found.has(route));
}

function scoreRoute(query: string[], route: RouteDefinition): number {
  const { hay, description } = wordsOf(route);
  let score = 0;
  for (const word of query) {
    if (hay.has(word)) score += 2;
    else if (description.has(word)) score += 0.5;
  }
  // Listing routes answer structural queries ("orders", "tickets") before detail routes.
  if (score > 0 && route.startPoint) score += 0.5;
  if (score > 0 && route.pattern.includes("{")) score -= 0.25;
  return score;
}

/**
 * The pages of the ranked list the caller may read. A connector whose reads are only for some
 * roles by default (an imported system) is asked the permission question for its pages, so a
 * member is not offered pages that would answer "permission required"; the others are read by
 * default and pass as they are.
 */
async function readableByCaller<T extends { r: RouteDefinition }>(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  ranked: T[],
): Promise<T[]> {
  const role = backend.who().role;
  const restricted = new Set(
    among.filter((c) => c.defaultAccess && !c.defaultAccess.read.includes(role)).map((c) => c.scheme),
  );
  if (restricted.size === 0) return ranked;
  const allowed = await Promise.all(
    ranked.map(async ({ r }) => {
      const scheme = r.pattern.split("://")[0] ?? "";
      if (!restricted.has(scheme)) return true;
      return (await backend.authorize("navigate", r.pattern)).decision === "allow";
    }),
  );
  return ranked.filter((_, i) => allowed[i]);
}

/**
 * The best `count` of a ranked list with at most `perSystem` from one system while others have
 * matches: with many systems connected, one system's five near matches do not crowd out another's
 * one right page. Order within the answer stays the ranking's.
 */
function balancedBySystem<T extends { r: RouteDefinition }>(
  ranked: T[],
  count: number,
  perSystem: number,
): T[] {
  const taken: T[] = [];
  const per = new Map<string, number>();
  for (const x of ranked) {
    const scheme = x.r.pattern.split("://")[0] ?? "";
    if ((per.get(scheme) ?? 0) >= perSystem) continue;
    per.set(scheme, (per.get(scheme) ?? 0) + 1);
    taken.push(x);
    if (taken.length === count) break;
  }
  // Fewer systems than places: the rest go to the best pages left, whatever their system.
  for (const x of ranked) {
    if (taken.length >= count) break;
    if (!taken.includes(x)) taken.push(x);
  }
  return ranked.filter((x) => taken.includes(x));
}

/** At most this many connectors are asked for records per search (each may call its system). */
const MAX_RECORD_SOURCES = 8;

export async function search(backend: BrowseBackend, query: string, scheme?: string): Promise<BrowsePage> {
  const target = `search:${scheme ?? "*"}`;
  const q = query.trim().slice(0, 200);
  // The query as the page repeats it (title, URI): what looks secret in it is not shown back.
  const shownQ = backend.redact(q);
  const pageUri = `search://${scheme ?? "all"}?q=${encodeURIComponent(shownQ)}`;
  return guarded(backend, { verb: "search", target, arguments: { query: q, scheme }, pageUri }, async () => {
    const among = await backend.connectors();
    const schemes = [...new Set(routeTable(among).map((r) => r.pattern.split("://")[0] ?? ""))];
    if (scheme && !schemes.includes(scheme)) {
      return {
        title: "Search",
        outcome: "not_found",
        markdown: `Unknown scheme ${code(scheme)}. Schemes: ${schemes.join(", ")}.\n\n${startLinks(backend, among)}`,
      };
    }
    const qWords = words(q).filter((w) => !STOP.has(w));
    const sections: string[] = [];

    // 1. Pages: the URI structure an agent cannot guess.
    const ranked = candidateRoutes(routeTable(among), qWords)
      .filter((r) => routeVisibleTo(r, backend) && (!scheme || r.pattern.startsWith(`${scheme}://`)))
      .map((r) => ({ r, score: scoreRoute(qWords, r) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 30);
    const routes = balancedBySystem(await readableByCaller(backend, among, ranked), 5, 2);
    const titles = new Map(among.map((c) => [c.scheme, c.title]));
    const mine = /\b(me|my|mine|assigned to me)\b/i.test(q);
    // The words name exactly one page (all of them are its title's or address's words): its
    // content comes with the answer, so "list my orders" is one call, not a search then a
    // navigate. Bounded; the rest of it is one navigate away.
    // Or one listing the words name clearly by score, though not every word is its title's.
    const named = namedPage(routes, qWords, mine) ?? clearListing(routes, mine);
    const opened = named ? await openedSection(backend, named) : null;
    const others = opened ? routes.filter(({ r }) => named !== r.pattern && named !== r.example) : routes;
    if (opened) sections.push(opened);
    if (others.length) {
      sections.push(
        `## ${opened ? "Other pages" : "Pages"}\n\n${others
          .map(({ r }, i) => {
            // A listing that takes ?mine=1 opens on the caller's own records when they say "my".
            const uri = mine && r.example?.endsWith("?mine=1") ? r.example : r.pattern;
            // The best two in full; the others by title (their page says the rest when opened).
            const about = i < 2 || r.title === r.description ? r.description : r.title;
            const system = titles.get(r.pattern.split("://")[0] ?? "");
            // A page under path parameters opens from the form its route names (an imported
            // system's start page asks for them), else it is shown as its pattern.
            const opener = r.pattern.includes("{") && r.example && !/[{…]/.test(r.example) ? r.example : null;
            return `- ${opener ? link(r.title, opener) : r.pattern.includes("{") ? `\`${r.pattern}\`` : link(r.title, uri)}${system ? ` (${escapeText(system)})` : ""} — ${about}`;
          })
          .join("\n")}`,
      );
    }

    // The page answers the words; records of the same words would repeat its rows.
    if (opened) return { title: `Search: ${shownQ}`, outcome: "applied", markdown: sections.join("\n\n") };

    // 2. Records: matching data across the connectors the query can be about.
    const sources = recordSources(
      among,
      routes.map(({ r }) => r),
      q,
      scheme,
    );
    const found = await searchRecords(backend, q, qWords, mine, sources, among, scheme);
    // The query is about the scheme of the best page ("my orders" → shop): its records first,
    // and others only where it has few.
    const about = routes[0]?.r.pattern.split("://")[0];
    const ofScheme = about ? found.filter((r) => r.includes(`](${about}://`)) : found;
    const records =
      about && ofScheme.length >= 3 ? ofScheme : [...ofScheme, ...found.filter((r) => !ofScheme.includes(r))];
    if (records.length) sections.push(`## Records\n\n${records.join("\n")}`);

    // 3. Capabilities: what can be done (the action face's catalog).
    if (!scheme || scheme === "actions") {
      const caps = await backend.searchCapabilities(q);
      const list = Array.isArray(caps.results)
        ? (caps.results as Row[])
        : Array.isArray(caps.capabilities)
          ? (caps.capabilities as Row[])
          : [];
      const top = list
        .slice(0, 3)
        .filter((c) => typeof c.capability === "string" || typeof c.id === "string");
      if (top.length && caps.outcome === "applied") {
        const forms: Record<string, string> = Object.assign({}, ...among.map((c) => c.forms ?? {}));
        sections.push(
          `## Capabilities\n\n${top
            .map((c) => {
              const id = String(c.capability ?? c.id);
              const form = forms[id];
              const trigger = (c.trigger as Row | undefined)?.use ?? c.title ?? "";
              return `- ${code(id)} — ${escapeText(trigger)}${form ? ` (form: \`${form}\`)` : ""}`;
            })
            .join("\n")}`,
        );
      }
    }

    if (sections.length === 0) {
      return {
        title: `Search: ${shownQ}`,
        outcome: "not_found",
        // One line, not the start list again: fewer or other words, or the listings themselves.
        markdown: `Nothing matched ${code(shownQ)}. Try fewer or other words, or ${link("the start page", "signpost://start")} for every listing.`,
      };
    }
    return { title: `Search: ${shownQ}`, outcome: "applied", markdown: sections.join("\n\n") };
  });
}

/** How far the best listing must lead the next page (in route score) to be opened in place. */
const OPEN_LEAD = 0.5;

/**
 * The URI of the best route when it is a start-point listing with no path parameters that a word
 * of the query names (score ≥ 2) and that leads the next page clearly; null otherwise. Forms and
 * pages under path parameters answer no "list …" question: only listings compete.
 */
function clearListing(routes: Array<{ r: RouteDefinition; score: number }>, mine: boolean): string | null {
  const listing = (r: RouteDefinition) => !r.pattern.includes("{") && !r.submit;
  const [best, next] = routes.filter(({ r }) => listing(r));
  if (!best || best !== routes[0] || !best.r.startPoint || best.score < 2) return null;
  if (next && best.score - next.score < OPEN_LEAD) return null;
  return mine && best.r.example?.endsWith("?mine=1") ? best.r.example : best.r.pattern;
}

/** How much of a page a search answer carries (about 600 tokens): a listing's first rows. */
const OPENED_CHARS = 2_400;

/**
 * The one page the query's words name, as a URI to open, or null: a page needing no parameters
 * whose title or address holds every word, when no other page of the answer does (two systems
 * with an "Orders" page: neither is opened, the list says both).
 */
function namedPage(routes: Array<{ r: RouteDefinition }>, qWords: string[], mine: boolean): string | null {
  if (qWords.length === 0) return null;
  // A page under parameters ("Order", `shop://order/{id}`) cannot be opened from words alone.
  const naming = routes.filter(({ r }) => {
    const own = new Set(words(`${r.title} ${r.pattern}`));
    return !r.pattern.includes("{") && qWords.every((w) => own.has(w));
  });
  const only = naming.length === 1 ? naming[0]?.r : undefined;
  if (!only) return null;
  return mine && only.example?.endsWith("?mine=1") ? only.example : only.pattern;
}

/**
 * The named page as a section of the search answer: opened as `navigate` opens it (the same
 * permission check and audit row), cut at a line under OPENED_CHARS. Only a page that rendered
 * is carried; anything else (refused, unavailable) leaves the answer as a plain search.
 */
async function openedSection(backend: BrowseBackend, uri: string): Promise<string | null> {
  const page = await navigate(backend, uri);
  if (page.outcome !== "applied") return null;
  const body = page.markdown.replace(/^# .*\n+/, "").trimEnd();
  let kept = body;
  if (body.length > OPENED_CHARS) {
    const cut = body.lastIndexOf("\n", OPENED_CHARS);
    kept = `${body.slice(0, cut > 0 ? cut : OPENED_CHARS)}\n\n… cut here: ${link("the whole page", page.uri)}`;
  }
  // Its own link first, then those of the rows the kept part shows: links of this answer too.
  const heading = link(page.title, page.uri);
  for (const l of page.links) if (kept.includes(`](${l})`)) recordLink(l);
  return `## ${heading} (opened here)\n\n${kept}`;
}

/**
 * The connectors a search asks for records (each may call its system), at most
 * MAX_RECORD_SOURCES: the one the query's scheme names; else those whose pages matched, best
 * first, then those whose id prefix the query starts with, then the process's installed ones
 * while slots remain (an imported system is asked only when the query is about it).
 */
function recordSources(
  among: readonly AnyConnector[],
  pages: RouteDefinition[],
  q: string,
  scheme?: string,
): AnyConnector[] {
  if (scheme) return among.filter((c) => c.scheme === scheme);
  const asks = (c: AnyConnector) => Boolean(c.searchRecords) || c.entities.length > 0;
  const byScheme = new Map(among.map((c) => [c.scheme, c]));
  const ranked = [
    ...pages.map((r) => byScheme.get(r.pattern.split("://")[0] ?? "")),
    ...among.filter((c) => c.entities.some((e) => q.trim().startsWith(e.idPrefix))),
    ...connectors(),
  ].filter((c): c is AnyConnector => c !== undefined && among.includes(c) && asks(c));
  return [...new Set(ranked)].slice(0, MAX_RECORD_SOURCES);
}

/** Words that make a query about settings (stemmed as `words()` does). */
const CONFIG_WORDS = new Set(["config", "setting", "secret", "key", "credential", "connection"]);

async function searchRecords(
  backend: BrowseBackend,
  q: string,
  qWords: string[],
  mine: boolean,
  sources: readonly AnyConnector[],
  among: readonly AnyConnector[],
  scheme?: string,
): Promise<string[]> {
  const out: string[] = [];
  const who = backend.who();
  const idLike = /^[a-z]+_[A-Za-z0-9_]+$/.test(q.trim()) ? q.trim() : undefined;
  if (!scheme || scheme === "signpost") {
    if (qWords.some((w) => who.tenantName.toLowerCase().includes(w) || who.tenantId === w)) {
      out.push(`- ${link(`${who.tenantName} (your organisation)`, "signpost://start")}`);
    }
  }
  // An admin asking about a system's settings ("shop api key") gets its settings page.
  if (who.role === "admin" && (!scheme || scheme === "config") && qWords.some((w) => CONFIG_WORDS.has(w))) {
    for (const c of among
      .filter((c) => qWords.includes(c.id) || qWords.includes(c.title.toLowerCase()))
      .slice(0, 3))
      out.push(`- ${link(`${c.title} settings`, `config://${c.id}`)}`);
  }
  // An id with a prefix a connector declares is linked only when that record is there for this
  // caller (looked up, never guessed from its shape).
  for (const connector of sources) {
    if (!idLike) continue;
    for (const entity of connector.entities) {
      if (!idLike.startsWith(entity.idPrefix)) continue;
      const found = await backend.entityView(entity.name, idLike);
      if (found.outcome === "applied") out.push(`- ${link(`${entity.label} ${idLike}`, entity.uri(idLike))}`);
    }
  }
  const lists = await Promise.all(
    sources.map(async (connector) => {
      if (!connector.searchRecords) return [];
      try {
        return await connector.searchRecords(
          { query: q, words: qWords, mine },
          ownBackend(backend, sources, connector.scheme),
        );
      } catch (error) {
        // One connector failing leaves its records out; the search still answers.
        logger.warn({ connector: connector.id, err: backend.redact(String(error)) }, "record search failed");
        return [];
      }
    }),
  );
  out.push(...lists.flat());
  return [...new Set(out)].slice(0, 12);
}
