import type { BackendOutcome, ListPage, Row } from "./browse-backend";
import type { FilterSpec, PageBody } from "./define-route";
import { type FormLink, formLinkLines } from "./form-links";
import { askedColumns, fieldValue, moreColumnsLine, rowFields } from "./listing-columns";
import { code, escapeText, link, shownPrefix } from "./markdown";
import { type BrowseUri, formatBrowseUri } from "./parse-browse-uri";
import { labelledValue, type ReferenceLabels } from "./reference-labels";
import { type MoneyOf, nextActionsList, objectSections, readMoneyOf, rowsTable } from "./render-helpers";

/** Shared page builders for the scheme route files: lists, entity views, refusals, paging. */
const PER_PAGE_NOTE = "Lists paginate: follow the next-page link.";

export function isOutcome(value: unknown): value is BackendOutcome {
  return (
    !!value &&
    typeof value === "object" &&
    typeof (value as BackendOutcome).outcome === "string" &&
    "message" in (value as object)
  );
}

/** A typed refusal from below, as a page: what happened and where to go. */
export function outcomePage(
  title: string,
  outcome: BackendOutcome,
  back?: { label: string; uri: string },
): PageBody {
  const lines = [`**${outcome.outcome}:** ${escapeText(outcome.message)}`];
  // The page's structured part carries only the outcome, so whether to retry is said here.
  const facts: string[] = [];
  if (outcome.reason) facts.push(`Reason: ${code(outcome.reason)}`);
  if (typeof outcome.retryable === "boolean") facts.push(`Retryable: ${outcome.retryable ? "yes" : "no"}`);
  if (facts.length) lines.push(facts.join(" · "));
  // Signpost's own connect page (built server-side from its public URL and the connector id,
  // never from anything an agent sent): shown whole, so the agent can relay it to the person.
  const connect = (outcome as { connect_url?: unknown }).connect_url;
  if (
    outcome.outcome === "connection_required" &&
    typeof connect === "string" &&
    /^https?:\/\/[^\s<>]+$/.test(connect)
  )
    lines.push(`Connect: <${connect}>`);
  if (back) lines.push(`\n${link(back.label, back.uri)}`);
  return { title, outcome: outcome.outcome, markdown: lines.join("\n") };
}

/** The line under a listing page: where it is, how many in all, and the links to the pages beside it. */
export function pagination(uri: BrowseUri, page: ListPage<unknown>): string {
  const links: string[] = [];
  if (page.page > 1)
    links.push(
      link(
        "Previous page",
        formatBrowseUri(uri.scheme, uri.segments, { ...uri.query, page: String(page.page - 1) }),
      ),
    );
  if (page.next_page)
    links.push(
      link(
        "Next page",
        formatBrowseUri(uri.scheme, uri.segments, { ...uri.query, page: String(page.next_page) }),
      ),
    );
  return `Page ${page.page} · ${page.total} in all${links.length ? ` · ${links.join(" · ")}` : ""}`;
}

/** `?per_page=` (1–50) on listing routes; absent = the backend's default. */
export function perPage(uri: BrowseUri): number | undefined {
  const n = Number.parseInt(uri.query.per_page ?? "", 10);
  return Number.isFinite(n) && n >= 1 && n <= 50 ? n : undefined;
}

export function pageNumber(uri: BrowseUri): number {
  const n = Number.parseInt(uri.query.page ?? "1", 10);
  return Number.isFinite(n) && n >= 1 && n <= 10_000 ? n : 1;
}

export const NOT_FOUND_FOR = (what: string, id: string): PageBody => ({
  title: "Not found",
  outcome: "not_found",
  markdown: `No ${what} ${code(id)} exists for you.`,
});

export function viewPage(
  kind: string,
  id: string,
  view: BackendOutcome,
  /** The forms that apply now; with their fields (withFormFields), they are submitted from here. */
  formLinks: ReadonlyArray<[string, string] | FormLink>,
): PageBody {
  if (view.outcome === "not_found") return NOT_FOUND_FOR(kind, id);
  if (view.outcome !== "applied" && view.outcome !== "preview") return outcomePage(`${kind} ${id}`, view);
  const entity = ((view.view ?? view.entity ?? view.order ?? view.ticket) as Row | undefined) ?? {};
  // The view's money as its connector's capabilities declare it: "$5.00", never a bare 500.
  const moneyOf = readMoneyOf(view.money_of);
  // The title says the kind and the id ("Order ord_paid"): the first two lines said them again.
  const titled = [
    ...(String(entity.entity ?? "").toLowerCase() === kind.toLowerCase() ? ["entity"] : []),
    ...(String(entity.id ?? "") === id ? ["id"] : []),
  ];
  // The capabilities the forms below start: the view's plain "yes" for one is not said twice.
  const offered = new Set(
    formLinks.flatMap((f) => (!Array.isArray(f) && f.capability ? [f.capability] : [])),
  );
  const parts: string[] = [
    objectSections(
      entity,
      ["next_actions", "eligibility", "after_sales", "actions", ...titled],
      moneyOf,
      offered,
    ),
  ];
  const eligibility = (entity.eligibility ?? entity.after_sales ?? view.eligibility) as
    | Row
    | Row[]
    | undefined;
  if (eligibility) {
    parts.push(
      `## What may be done now\n\n${Array.isArray(eligibility) ? rowsTable(eligibility, undefined, undefined, moneyOf) : objectSections(eligibility, [], moneyOf)}`,
    );
  }
  const next = view.next_actions ?? [];
  const forms = formsStarting(view, formLinks);
  const rest = next.filter((n) => !forms.some((f) => f.capability && n.args?.capability === f.capability));
  if (forms.length) parts.push(`## Actions\n\n${formLinkLines(forms)}`);
  if (rest.length || !forms.length)
    parts.push(`## Next (action face)\n\n${nextActionsList({ ...view, next_actions: rest })}`);
  return {
    title: `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${id}`,
    outcome: "applied",
    markdown: parts.join("\n\n"),
  };
}

/**
 * The forms, each with the next step of the record's view it starts said on its line (one line
 * per form, not a form and a next step saying the same).
 */
function formsStarting(
  view: BackendOutcome,
  formLinks: ReadonlyArray<[string, string] | FormLink>,
): FormLink[] {
  const next = view.next_actions ?? [];
  return formLinks.map((f) => {
    const form = Array.isArray(f) ? { label: f[0], uri: f[1] } : f;
    const step = next.find((n) => form.capability && n.args?.capability === form.capability);
    return step ? { ...form, start: approvalOnLine(step), tool: step.tool } : form;
  });
}

/**
 * Who approves a form's change, as its line says it: "no approval" (the lines' last one says the
 * change then runs at once), else the step's own words ("approval: an admin").
 */
function approvalOnLine(step: NonNullable<BackendOutcome["next_actions"]>[number]): string {
  const words = typeof step.approval === "string" ? step.approval : "";
  if (/^no approval:/.test(words)) return "no approval";
  if (words) return escapeText(words);
  return step.requires_user_approval ? "needs the user's approval" : "no approval";
}

/**
 * A page about part of a record (its comments, its lines) ends with the forms that add to or
 * change that part, as the record's own page offers its forms: issue 23's model read a ticket's
 * comments page, found no way to add one, and searched the capabilities for it (two calls).
 * `view` is the record's view (its next_actions say which forms apply now); "" when none does.
 */
export function partActionsSection(
  view: BackendOutcome,
  formLinks: ReadonlyArray<[string, string] | FormLink>,
): string {
  const forms = formsStarting(view, formLinks);
  return forms.length ? `## Actions\n\n${formLinkLines(forms)}` : "";
}

/** Query keys that page, order or widen a listing: never the reason it is empty. */
const NOT_A_FILTER = /^(page|per_page|cursor|sort|sort_?by|order|order_?by|ordering|direction|dir|columns)$/i;

/** What every listing takes beside its filters: its page, its page size, the columns it adds. */
const LISTING_KEYS = ["page", "per_page", "columns"];

/**
 * The line an empty listing answers with: why there is nothing ("None with `status=closed`,
 * `team_id=billing`.": the filters given), or that the system has none at all. A bare "(none)"
 * left the model to wonder whether a filter, a page or the system was the cause.
 */
export function noRowsLine(query: Record<string, string>, page = 1): string {
  const given = Object.entries(query)
    .filter(([k, v]) => v !== "" && !NOT_A_FILTER.test(k))
    .map(([k, v]) => code(`${k}=${v}`));
  if (page > 1) return `None on page ${page}: the rows ended on an earlier page.`;
  return given.length ? `None with ${given.join(", ")}.` : "None: the system returned no rows.";
}

export function listPage<T extends object>(
  title: string,
  uri: BrowseUri,
  result: ListPage<T> | BackendOutcome,
  columns: Array<keyof T & string>,
  rowUri: (row: T) => string,
  /** How the rows are ordered, in a few words ("newest first"): a reader never has to guess. */
  order: string,
  /**
   * The connector's declared money (integer minor units under these keys): every money column
   * of a row shows as money, one added by `?columns=` too, not only those whose names look like
   * money (a played listing read "refunded 8900" beside "total $89.00").
   */
  moneyOf?: MoneyOf,
  options: ListingOptions = {},
): PageBody {
  if (isOutcome(result)) return outcomePage(title, result);
  const rows: T[] = result.data;
  // The fields the rows hold beyond the curated columns: `?columns=` shows them, one line names them.
  const fields = rowFields(rows);
  const asked = rows.length ? askedColumns(uri.query.columns, fields.all, fields.top) : { columns: [] };
  if ("problem" in asked) return columnsRefusal(title, uri, asked.problem);
  const listed: string[] = [...columns, ...asked.columns.filter((c) => !(columns as string[]).includes(c))];
  const about = aboutColumn(options.mainText, rows, listed);
  // The excerpt beside the row's title (its second column), where a reader looks for what it is.
  const shown = about ? [...listed.slice(0, 2), about, ...listed.slice(2)] : listed;
  const moneyShown = moneyOf ? shown.filter((c) => moneyOf.keys.includes(c)) : [];
  const hidden = fields.top.filter((f) => !shown.some((c) => c === f || c.startsWith(`${f}.`)));
  const references = options.references ?? {};
  // Each row's first cell links to the row's page: no second list repeating the rows as links.
  const table = rowsTable(
    rows.map((row) => {
      const out: Row = {};
      for (const col of shown) {
        const value = fieldValue(row, col);
        out[col] = col === about ? excerpt(value) : labelledValue(value, references[col]);
      }
      return out;
    }),
    shown,
    (i) => rowUri(rows[i] as T),
    moneyOf,
  );
  return {
    title,
    outcome: "applied",
    rows: rows.length,
    total: result.total,
    ...(hidden.length ? { moreColumns: hidden } : {}),
    ...(moneyShown.length ? { moneyColumns: moneyShown } : {}),
    // Each row by its first column (its id) and the next one (its subject, name or status).
    items: rows.map((row) => ({
      id: String((row as Row)[columns[0] ?? ""] ?? ""),
      title: String((row as Row)[columns[1] ?? ""] ?? ""),
      uri: rowUri(row),
    })),
    // The note only where there is a next page to follow: elsewhere it costs a needless call.
    markdown: [
      rows.length ? `${order}.` : "",
      rows.length ? table : noRowsLine(uri.query, pageNumber(uri)),
      moreColumnsLine(hidden),
      pagination(uri, result),
      result.next_page ? PER_PAGE_NOTE : "",
    ]
      .filter(Boolean)
      .join("\n\n"),
  };
}

/** What a listing declares beyond its columns (listPage's last argument). */
export interface ListingOptions {
  /**
   * Columns holding other records' ids, with those records' names (referenceLabels reads them):
   * each cell shows the name with the id beside it, "Bella Billing (`tm_bella`)".
   */
  references?: ReferenceLabels;
  /**
   * The field holding a row's own words (a ticket's description, a product's): a short listing
   * shows the start of it beside the title. Issue 23: "which tickets are pending, and what are
   * they about?" showed subjects only, and the model listed them again with the descriptions.
   */
  mainText?: string;
}

/** Rows few enough that one line of each one's text is worth its tokens (≤ ~20 a row). */
const SHORT_LISTING = 5;
/** Characters of a row's text a short listing shows: a sentence, enough to tell what it is about. */
const EXCERPT_CHARS = 70;

/** The main text column a short listing adds, unless the table already shows it or no row has it. */
function aboutColumn(mainText: string | undefined, rows: readonly object[], shown: readonly string[]) {
  if (!mainText || !rows.length || rows.length > SHORT_LISTING || shown.includes(mainText)) return undefined;
  return rows.some((r) => typeof fieldValue(r, mainText) === "string") ? mainText : undefined;
}

/** A text on one line, cut at a word near EXCERPT_CHARS with an ellipsis. */
function excerpt(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const line = value.replace(/\s+/g, " ").trim();
  if (line.length <= EXCERPT_CHARS) return line;
  const cut = line.slice(0, EXCERPT_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > EXCERPT_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** A `?columns=` naming no field of the rows: refused, with the fields there are and the way back. */
function columnsRefusal(title: string, uri: BrowseUri, problem: string): PageBody {
  const { columns: _asked, ...rest } = uri.query;
  return {
    title,
    outcome: "rejected",
    markdown: [
      `**rejected:** ${problem}`,
      "Reason: `invalid_columns` · Retryable: no (change the columns)",
      link(title, formatBrowseUri(uri.scheme, uri.segments, rest)),
    ].join("\n\n"),
  };
}

/**
 * Checks a listing's enumerated filters before anything is sent below: a value outside the
 * documented set can never succeed, so it is a typed refusal naming the allowed values (with a
 * link for each) and the way back, never a legacy call. `null` when every filter is valid.
 */
export function invalidFilterPage(title: string, uri: BrowseUri, filters: FilterSpec): PageBody | null {
  const listing = formatBrowseUri(uri.scheme, uri.segments);
  const refuse = (problem: string): PageBody => ({
    title,
    outcome: "rejected",
    markdown: [
      `**rejected:** ${problem}`,
      "Reason: `invalid_filter` · Retryable: no (change the filter)",
      `Accepted: ${[...Object.keys(filters), ...LISTING_KEYS].map((k) => `\`${k}\``).join(", ")}.`,
      link(`All ${title.toLowerCase()}`, listing),
    ].join("\n\n"),
  });
  // A misspelt filter (`?stauts=paid`) silently ignored would list everything and look like an
  // answer; a page number out of range silently clamped would show another page than asked.
  for (const key of Object.keys(uri.query)) {
    if (Object.hasOwn(filters, key) || LISTING_KEYS.includes(key)) continue;
    return refuse(`${escapeText(JSON.stringify(shownPrefix(key, 40, "")))} is not a filter of this listing.`);
  }
  const page = uri.query.page;
  if (page && !(/^\d+$/.test(page) && Number(page) >= 1 && Number(page) <= 10_000))
    return refuse("`page` must be a whole number from 1 to 10000.");
  if (uri.query.per_page && perPage(uri) === undefined)
    return refuse("`per_page` must be a whole number from 1 to 50.");
  for (const [key, allowed] of Object.entries(filters)) {
    const value = uri.query[key];
    // An empty value is dropped from the canonical URI: it means "no filter".
    // Free text, and a record's id (the system checks those), pass as they are.
    if (!Array.isArray(allowed) || value === undefined || value === "" || allowed.includes(value)) continue;
    // JSON.stringify makes control characters visible instead of passing them into the page.
    const shown = escapeText(JSON.stringify(shownPrefix(value, 60, "")));
    const options = allowed
      .map(
        (v) => `- ${link(`${title}: ${key}=${v}`, formatBrowseUri(uri.scheme, uri.segments, { [key]: v }))}`,
      )
      .join("\n");
    return {
      title,
      outcome: "rejected",
      markdown: [
        `**rejected:** \`${key}\` must be one of ${allowed.map((v) => `\`${v}\``).join(", ")}; got ${shown}.`,
        "Reason: `invalid_filter` · Retryable: no (change the filter)",
        `Use one of these:\n\n${options}\n- ${link(`All ${title.toLowerCase()}`, listing)}`,
      ].join("\n\n"),
    };
  }
  return null;
}

/** A filter's value to send below: empty means none. */
export function filterValue(uri: BrowseUri, key: string): string | undefined {
  const value = uri.query[key];
  return value === undefined || value === "" ? undefined : value;
}
