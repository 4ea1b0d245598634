import type { BrowseBackend, Row } from "../connectors/sdk/browse-backend";
import { withExactTimes } from "../connectors/sdk/exact-times";
import { code } from "../connectors/sdk/markdown";
import { recordLink } from "../connectors/sdk/page-scope";
import { namesRoute } from "../connectors/sdk/row-uri-pattern";
import { addressedListing } from "./addressed-listing";
import { balancedBySystem } from "./balanced-by-system";
import { beyondOwnRecords, NOT_YOURS_MARK, OWN_WORDS } from "./beyond-own-records";
import { type RouteDefinition, routeTable, routeVisibleTo } from "./browse-routes";
import { capabilitiesSection } from "./capabilities-section";
import { clearListing } from "./clear-listing";
import { columnsListing } from "./columns-listing";
import { perValueListing, perWordsUsed, withoutCountWords, withoutRankWords } from "./counts-per-value";
import { eligibleRecords } from "./eligible-records";
import { guarded } from "./guarded";
import { idRows } from "./id-rows";
import { listingRowsShow } from "./listing-rows-show";
import { narrowedListing } from "./listing-words";
import { namedRecord } from "./named-record";
import { type MayNavigate, navigableRoutes } from "./navigable-routes";
import { noRecordLine } from "./no-record-line";
import { withoutNonePhrases } from "./none-named";
import { oneRecord, searchHitFound } from "./one-record";
import { NONE_MARK, openedSection, wordsAlone } from "./opened-section";
import { pagesSection } from "./pages-section";
import { readableByCaller } from "./readable-by-caller";
import { recordAnswer } from "./record-answer";
import { type BrowsePage, startLinks } from "./render-page";
import { ASKING, candidateRoutes, FRAMING, routeHoldsEvery, STOP, scoreRoute, words } from "./route-words";
import { underRowForms } from "./row-forms-line";
import { recordSources, searchRecords } from "./search-records";
import { schemeOf, searchableSystems } from "./searchable-systems";
import { sortFromWords } from "./sort-words";
import { timeWindow } from "./time-window-words";
import { withoutWhoWorksOn } from "./who-works-on";

// Search: the URI structure (routes) and the data.
/** The line before records found beyond the caller's own ("my" read as theirs found none). */
/** Above a record found beyond the caller's own, where "my" read them as theirs. */
const NOT_YOURS_LINE = "None of your own holds these words; found among every one you may read:";
const NOT_YOURS = (own: string) =>
  `None of yours (${code(own)}) holds these words; found among every one you may read:`;

export async function search(backend: BrowseBackend, query: string, scheme?: string): Promise<BrowsePage> {
  const target = `search:${scheme ?? "*"}`;
  const q = query.trim().slice(0, 200);
  // The query as the page repeats it (title, URI): what looks secret in it is not shown back.
  const shownQ = backend.redact(q);
  const pageUri = `search://${scheme ?? "all"}?q=${encodeURIComponent(shownQ)}`;
  return guarded(backend, { verb: "search", target, arguments: { query: q, scheme }, pageUri }, async () => {
    // Only the systems whose own search no rule refuses the caller are read, named or counted.
    const every = await backend.connectors();
    const { among, searchable } = await searchableSystems(backend, every, scheme);
    const schemes = [...new Set(routeTable(among).map((r) => schemeOf(r.pattern)))].filter((s) =>
      searchable(`${s}://`),
    );
    if (scheme && !schemes.includes(scheme)) {
      return {
        title: "Search",
        outcome: "not_found",
        markdown: `Unknown scheme ${code(scheme)}. Schemes: ${schemes.join(", ")}.\n\n${startLinks(backend, among)}`,
      };
    }
    // One record id of a declared kind: its page is the answer (issue 23: a link alone sent the
    // model on to navigate), or navigate's word that it is not there for the caller.
    // A link sent as the words is opened as navigate opens it (set AY: its column names were
    // searched for as words, and the rows they held were shown as the answer).
    const linked = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(q) && schemes.includes(schemeOf(q)) ? [q] : [];
    const record = await recordAnswer(backend, linked.length ? linked : namedRecord(among, q, scheme));
    if (record) return { title: `Search: ${shownQ}`, ...record, answer: record.markdown };
    // A time window's words ("over the last week") say when, never which page or record:
    // scored, "over" left the listing short of its lead (issue 23 review).
    // Its event ("shipped") still names what the rows are.
    const phrase = timeWindow(q)?.phrase;
    const windowWords = new Set(phrase ? words(phrase) : []);
    const said = (text: string) =>
      words(withoutCountWords(withoutWhoWorksOn(text))).filter(
        (w) => !STOP.has(w) && !FRAMING.has(w) && !windowWords.has(w),
      );
    const qWords = said(q);
    // What the rows lack ("with no owner") names no page.
    const pageWords = said(withoutNonePhrases(q, routeTable(among)));
    const sections: string[] = [];

    // 1. Pages: the URI structure an agent cannot guess.
    const visible = (r: RouteDefinition) =>
      routeVisibleTo(r, backend) &&
      searchable(r.pattern) &&
      (!scheme || r.pattern.startsWith(`${scheme}://`));
    // One id quoted beside another listing's noun ("tickets about ord_1"): that listing's rows holding it.
    const held = await idRows(backend, among, q, visible);
    if (held) return { title: `Search: ${shownQ}`, outcome: "applied", markdown: held, answer: held };
    const ranked = candidateRoutes(routeTable(among), pageWords)
      .filter(visible)
      .map((r) => ({ r, score: scoreRoute(pageWords, r) }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 30);
    const readable = await readableByCaller(backend, among, ranked);
    const routes = balancedBySystem(readable, 5, 2);
    const titles = new Map(among.map((c) => [c.scheme, c.title]));
    const mine = /\b(me|my|mine|assigned to me)\b/i.test(q);
    // The words name exactly one page (all of them are its title's or address's words): its
    // content comes with the answer, so "list my <records>" is one call, not a search then a
    // navigate. Bounded; the rest of it is one navigate away.
    // Or one listing the words name clearly by score, though not every word is its title's.
    // Sort words ("cheapest first") say how to order a page, not which page it is.
    const sorting = sortFromWords(q, undefined).used;
    // Or the one listing that filters by an email address the words hold.
    const addressed = addressedListing(routeTable(among), q, visible);
    // A count asked per a filter's values of a listing the words name by its title comes first,
    // from every readable match: the pages shown are at most two per system, and a system's forms
    // ("set ticket status", "move ticket to team") crowded its listing out (set AT: "How many
    // tickets does the billing team have in each status?" opened nothing, or the teammates).
    const named =
      perValueListing(readable, q, mine) ??
      namedPage(
        routes,
        pageWords.filter((w) => !sorting.has(w) && !ASKING.has(w)),
        mine,
      ) ??
      clearListing(routes, mine, q) ??
      addressed?.pattern ??
      (await listingRowsShow(backend, routes, qWords, mine)) ??
      (await columnsListing(backend, routes, q, qWords, mine));
    // "records I can <do>": which ones is the capability's dry run's answer, said first; where
    // it checked the very listing the words name, that is the whole answer (its rows would
    // repeat it). Any other question leaves the listing the words name as it is.
    // A record is printed only where the caller may navigate to it: asked once per route pattern.
    const navigable = navigableRoutes(backend, among);
    const may: MayNavigate = async (uri) => searchable(uri) && navigable(uri);
    const possible = await eligibleRecords(backend, q, qWords, mine, named, among, may);
    if (possible?.answered)
      return {
        title: `Search: ${shownQ}`,
        outcome: "applied",
        markdown: possible.markdown,
        answer: possible.markdown,
      };
    if (possible) sections.push(possible.markdown);
    const namedRoute =
      readable.find(({ r }) => r.pattern === named || r.example === named)?.r ??
      (addressed?.pattern === named ? addressed : undefined);
    // Beside the capability's answer of which records it can take (`possible`), a listing stays one.
    // A listing a time window filters shows its rows' times to the minute (exact-times.ts).
    const open = (uri: string) =>
      withExactTimes(!!timeWindow(q), async () =>
        openedSection(
          backend,
          await narrowedListing(
            backend,
            uri,
            namedRoute,
            withoutPerWords(qWords),
            per.size ? withoutRankWords(q, namedRoute?.filters) : q,
          ),
          namedRoute,
          may,
          q,
          !possible,
        ),
      );
    // The words that ask a count per a filter's values say how to count, not what to look for.
    const per = perWordsUsed(namedRoute, q);
    function withoutPerWords(said: string[]) {
      return per.size ? said.filter((w) => !per.has(w)) : said;
    }
    let section = named ? await open(named) : null;
    // "my" opened the caller's own records, and none of theirs holds the words: "my" was the
    // record's own words (played: "where are my headphones ticket", a ticket's subject, answered
    // "no ticket matches" among the one assigned to the caller). Every record they may read is
    // searched, and the answer says so.
    const own = namedRoute?.example;
    if (mine && section?.markdown.startsWith(NONE_MARK) && own === named && own?.endsWith("?mine=1")) {
      const every = await open(own.slice(0, -"?mine=1".length));
      if (every?.byText) section = { ...every, markdown: `${NOT_YOURS(own)}\n\n${every.markdown}` };
    }
    // The words fit one row of the listing by its text: that record's page is the whole answer.
    if (section?.record)
      return {
        title: `Search: ${shownQ}`,
        outcome: "applied",
        markdown: section.markdown,
        answer: section.markdown,
      };
    const opened = section?.markdown ?? null;
    // The listing the words name holds none of their records: that one line, with the link to
    // all of it, is the answer; a list of other pages after it read as somewhere to go.
    if (opened?.startsWith(NONE_MARK))
      return {
        title: `Search: ${shownQ}`,
        outcome: "applied",
        markdown: [...sections, opened.slice(NONE_MARK.length)].join("\n\n"),
      };
    // Beside an opened page, another system's pages are where else the words point only where
    // their title or keywords hold a word of theirs beyond the opened page's own title and filter
    // names (set BC: "count of tickets by status" was followed by "Track shipment", "Action" and
    // "Verify action", read by no model; "status" is every system's word).
    const ownWords = new Set(
      said(`${namedRoute?.title ?? ""} ${Object.keys(namedRoute?.filters ?? {}).join(" ")}`),
    );
    const pointsTo = (r: RouteDefinition) =>
      schemeOf(r.pattern) === schemeOf(named ?? "") ||
      said(`${r.title} ${r.keywords.join(" ")}`).some((w) => !ownWords.has(w) && qWords.includes(w));
    const others = opened
      ? routes.filter(
          ({ r }) => pointsTo(r) && !namesRoute(opened, named, r) && !underRowForms(opened, r.pattern),
        )
      : routes;
    const pagesOf = () => pagesSection(backend, others, { opened: !!opened, mine, titles });
    // The page answers the words; records of the same words would repeat its rows.
    if (opened) {
      const pages = await pagesOf();
      return {
        title: `Search: ${shownQ}`,
        outcome: "applied",
        markdown: [...sections, opened, ...(pages ? [pages.markdown] : [])].join("\n\n"),
        answer: opened,
      };
    }

    // 2. Records: matching data across the connectors the query can be about.
    const sources = recordSources(
      among,
      routes.map(({ r }) => r),
      q,
      scheme,
    );
    // Sort words are no record's text ("cheapest headphones" looks for headphones).
    // Nor are the words of a question ("which … can I still …").
    const recordWords = qWords.filter((w) => !sorting.has(w) && !ASKING.has(w));
    const ownHits = await searchRecords(backend, q, recordWords, mine, sources, among, may, scheme);
    const beyond = await beyondOwnRecords(ownHits, mine && OWN_WORDS.test(q), sources, () =>
      searchRecords(backend, q, recordWords, false, sources, among, may, scheme),
    );
    let found = beyond.found;
    // Several words that found nothing together: each alone, once, at most three (round 10's
    // model, told nothing matched "login problem", spent its next call on "login").
    // A negation is searched with the word it denies, never alone.
    const each = !found.length && recordWords.length > 1 ? wordsAlone(recordWords) : [];
    const alone = each.length ? each : null;
    // Which of the words alone found records, and which none: the heading says both (set AC:
    // "none holds every word" of "Logo Tee sizes stock" sent the model to list the products
    // again, unsure the tees shown were all of them).
    let aloneFound: string[] = [];
    if (alone) {
      const hits = await Promise.all(
        alone.map((w) => searchRecords(backend, w, [w], mine, sources, among, may, scheme)),
      );
      aloneFound = alone.filter((_, i) => hits[i]?.length);
      found = [...new Map(hits.flat().map((hit) => [hit.line, hit] as const)).values()].slice(0, 12);
    }
    // The query is about the scheme of the best page ("my <records>" → the system with that listing): its records first,
    // and others only where it has few.
    const about = routes[0]?.r.pattern.split("://")[0];
    const ofScheme = about ? found.filter((r) => r.line.includes(`](${about}://`)) : found;
    const records =
      about && ofScheme.length >= 3 ? ofScheme : [...ofScheme, ...found.filter((r) => !ofScheme.includes(r))];
    // One record the words fit (not each word alone): its page is the answer, not its line.
    // Not where a page holds every word too ("refund" names a form as well as a record's text).
    const pageFits = routes.some(({ r }) => routeHoldsEvery(recordWords, r));
    const one = alone || possible || pageFits ? null : searchHitFound(records, among, q, recordWords);
    const onePage = await oneRecord(backend, one);
    if (onePage) {
      // The one record is a hit of the search beyond the caller's own: said so above its page.
      const theirs = records.length === 1 && beyond.others.has(records[0]?.line ?? "");
      const page = theirs ? `${NOT_YOURS_LINE}\n\n${onePage}` : onePage;
      return { title: `Search: ${shownQ}`, outcome: "applied", markdown: page, answer: page };
    }
    // Built after the one record's page had its chance: its links are this answer's only if shown.
    const pages = await pagesOf();
    if (pages) sections.push(pages.markdown);
    const fieldsShown = !!pages?.fieldsShown;
    // Only the shown records' links become the page's links.
    for (const l of records.flatMap((r) => r.links)) recordLink(l);
    if (records.length)
      sections.push(
        `## Records${alone ? ` (${aloneHeading(alone, aloneFound)})` : ""}\n\n${records.map((r) => (beyond.others.has(r.line) ? `${r.line}${NOT_YOURS_MARK}` : r.line)).join("\n")}`,
      );
    // Words that opened no page and found no record ("login problem"): say so first, in one
    // line with where to look, so the capabilities below do not read as the record's answer.
    const noRecord =
      !records.length && !others.length
        ? await noRecordLine(
            backend,
            shownQ,
            sources,
            alone,
            // Searched beyond the caller's own too: the line counts every record read.
            { query: q, words: recordWords, mine: mine && !beyond.widened },
            may,
          )
        : null;
    if (noRecord) sections.push(noRecord);

    // 3. Capabilities: what can be done (the action face's catalog).
    if ((!scheme || scheme === "actions") && searchable("actions://")) {
      const caps = await backend.searchCapabilities(q);
      // A capability of a system the search leaves out is not offered either.
      const leftOut = new Set(
        every.filter((c) => !among.includes(c)).flatMap((c) => c.capabilities.map((k) => k.id)),
      );
      const list = Array.isArray(caps.results)
        ? (caps.results as Row[])
        : Array.isArray(caps.capabilities)
          ? (caps.capabilities as Row[])
          : [];
      const top = list
        .filter((c) => !leftOut.has(String(c.capability ?? c.id)))
        .slice(0, 3)
        .filter((c) => typeof c.capability === "string" || typeof c.id === "string");
      if (top.length && caps.outcome === "applied")
        sections.push(await capabilitiesSection(backend, among, top, fieldsShown, q));
    }

    // Nothing but the line that nothing matched: the same answer, as not found.
    if (noRecord && sections.length === 1)
      return { title: `Search: ${shownQ}`, outcome: "not_found", markdown: noRecord };
    return { title: `Search: ${shownQ}`, outcome: "applied", markdown: sections.join("\n\n") };
  });
}

/**
 * The one page the query's words name, as a URI to open, or null: a page needing no parameters
 * whose title or address holds every word, when no other page of the answer does (two systems
 * with a listing of the same title: neither is opened, the list says both).
 */
function namedPage(routes: Array<{ r: RouteDefinition }>, qWords: string[], mine: boolean): string | null {
  if (qWords.length === 0) return null;
  // A page under parameters (`scheme://record/{id}`) cannot be opened from words alone.
  const naming = routes.filter(({ r }) => {
    const own = new Set(words(`${r.title} ${r.pattern}`));
    return !r.pattern.includes("{") && qWords.every((w) => own.has(w));
  });
  const only = naming.length === 1 ? naming[0]?.r : undefined;
  if (!only) return null;
  return mine && only.example?.endsWith("?mine=1") ? only.example : only.pattern;
}

/**
 * What the words searched alone found: "none holds every word; found by `logo`, `tee`; `sizes`
 * found nothing", so a reader knows which words the rows answer and which no record holds.
 */
function aloneHeading(words: readonly string[], found: readonly string[]): string {
  const none = words.filter((w) => !found.includes(w));
  const by = found.map((w) => code(w)).join(", ");
  return `none holds every word; found by ${by}${none.length ? `; ${none.map((w) => code(w)).join(", ")} found nothing` : ""}`;
}
