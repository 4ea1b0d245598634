import type { BrowseBackend, OutcomeKindLike } from "./browse-backend";
import type { LineField } from "./form-fields-line";
import type { BrowseUri } from "./parse-browse-uri";
import type { StatusLifecycle } from "./record-events";

/**
 * The values each query filter of a listing accepts (the listing's description names the same);
 * `"free text"` marks a search filter such as `?q=` whose value is not checked here, a
 * `ChoiceFilter` one whose values are the system's own records (a team's id for `?team_id=`), and
 * `"event time"` a row key timing an event (`shipped_at`, record-events.ts): `?shipped_at=none`
 * keeps the rows that did not go through it (yet), `=any` those that did; a search's words naming
 * the event ("not shipped", "delivered") set it. `"email address"` marks a filter the system
 * compares with one address whole (`?requester_email=`): an address a search's words hold sets it
 * (a `ChoiceFilter` of `emailAddresses` also takes a word naming one of its addresses).
 */
export type FilterSpec = Record<
  string,
  readonly string[] | "free text" | "event time" | "email address" | ChoiceFilter
>;

/** One value a filter takes, with the words a person would name it by ("shipping" → "Shipping"). */
export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * A filter whose values are records of the system (teams, categories): `choices` reads them with
 * their labels, from the same source the system's pages or capabilities already offer. A search
 * reads them at most once, and only when its words are left over after naming the listing, so a
 * search whose words name one ("open tickets team shipping") filters by it instead of searching
 * its text. Null when they cannot be read now (the words then stay what they were).
 */
export interface ChoiceFilter {
  choices(backend: BrowseBackend): Promise<readonly FilterChoice[] | null>;
  /**
   * The values are email addresses (`?requester_email=`): an address the words hold sets the
   * filter whole, as for an `"email address"` filter, and a word of the part before the `@` of
   * one the choices read names it ("jo" → jo@…; "jo.b" holds "jo"). The domain never
   * names anyone: it is everyone's. Issue 23 (set S): "<name> open tickets" searched subjects for
   * the name, found none, and read as "they have no tickets".
   */
  emailAddresses?: true;
  /**
   * What its values are, in the words people count by ("teammate" for `?assignee_id=`): "open
   * tickets per teammate" is a count per this filter's values (browse/counts-per-value.ts), as
   * "per assignee" is by the key's own word.
   */
  valuesAre?: readonly string[];
}

/** Whether a filter takes one email address: `"email address"`, or a choice filter of addresses. */
export function takesEmailAddress(spec: FilterSpec[string] | undefined): boolean {
  return spec === "email address" || (typeof spec === "object" && "choices" in spec && !!spec.emailAddresses);
}

/** A rendered page before the browse layer adds its footer and link list. */
export interface PageBody {
  title: string;
  outcome: OutcomeKindLike;
  markdown: string;
  actionId?: string;
  capability?: string;
  /**
   * Set where the page is an action left waiting on a person's approval: a host that opens URLs
   * for its person sends them to `url` and keeps the call open (mcp/browse-approval-round.ts).
   */
  awaitingApproval?: AwaitingApproval;
  /** A listing's rows on this page: a search that narrowed it by words says when none match. */
  rows?: number;
  /** A listing's records on every page, where the system says: a status filter's line counts them. */
  total?: number;
  /**
   * The fields a listing's rows hold that its table does not show (`?columns=` adds them): a
   * search whose words name one adds it, so the fact asked about is in the first answer.
   */
  moreColumns?: string[];
  /**
   * The columns of a listing's table that hold money (the connector's declared money keys, as
   * listPage shows them): a search's words that bound an amount ("under $30") compare one.
   */
  moneyColumns?: string[];
  /**
   * A listing's rows on this page by id and title: a search that found nothing names them when
   * the caller can see only a few, so "none" can be checked without another call.
   */
  items?: ListedItem[];
}

/** An action waiting on a person's approval of this version, and where they decide. */
export interface AwaitingApproval {
  actionId: string;
  version: number;
  /** The approval screen on Signpost's console (what the page's confirmation line links). */
  url: string;
  /** What the person approves (the action's decision summary), for the host's line beside the link. */
  summary?: unknown;
}

/** One row of a listing as an empty search names it: its id and a few words of its title. */
export interface ListedItem {
  id: string;
  title: string;
  /** The row's own page, where it has one: a line naming the row names it only if that page may be opened. */
  uri?: string;
}

export interface RouteMatch {
  uri: BrowseUri;
  params: Record<string, string>;
}

export interface RouteDefinition {
  /** `scheme://segment/{param}`; the route table is also the search index of the URI structure. */
  pattern: string;
  title: string;
  description: string;
  /** Words people use for this page ("tickets assigned to me", "my orders"). */
  keywords: string[];
  /** Listing/start pages are offered on not-found pages and by structural search. */
  startPoint?: boolean;
  /** Example query suffix for listing routes that take filters, shown in search results. */
  example?: string;
  /**
   * The query filters a listing takes (the same spec its render checks): a search that opens the
   * listing applies a value the words name ("oldest open tickets" → `?status=open&sort=oldest`).
   */
  filters?: FilterSpec;
  /**
   * The words people use for a declared filter value, by filter and value (`status: { pending:
   * ["on hold", "waiting on the customer"] }`): a search whose words say one applies that value,
   * as if they had named it. Played (set K): "which tickets are waiting on the customer?" read
   * every ticket; nothing said that `pending` is that. A value's words (its own or these) rank the
   * listing in search only beside a word for its records ("orders … store credit", not "store
   * credit" alone), and then above a page that merely holds them; a filtered listing says the
   * value with the first of these that says more than it ("pending (on hold)"). Write phrases,
   * not a word two values share ("store credit", "credit card", never "credit").
   */
  valueWords?: Record<string, Record<string, readonly string[]>>;
  /**
   * Words people use for a field the listing can add as a column (`moreColumns`), beyond its own
   * name's words (`rebate: ["voucher", "saved"]`): a search saying one adds that column as if it
   * named the field. Single words, compared by stem. Set CA: "Which of my orders had a ‹price
   * reduction›, and how much did it save me?" added its code's column, not what it took off.
   */
  columnWords?: Record<string, readonly string[]>;
  /**
   * The states a record of this listing passes, in order (`statusLifecycle`): a record in a later
   * state went through the earlier ones, so words denying an event ("not shipped") leave out the
   * rows past it too (a delivered order shipped). Set AG: "which of my orders haven't shipped
   * yet" left out the one row whose status said shipped and kept the delivered ones.
   */
  lifecycle?: StatusLifecycle;
  /**
   * What the listing's free-text filter searches, as a model reads it ("subjects and descriptions
   * of tickets"): a search it answers with no row says so, so "none" reads as final rather than
   * as "maybe another field". Every listing with a `"free text"` filter declares it.
   */
  textSearches?: string;
  /**
   * Only admins' agents may see this route. To anyone else it does not exist: navigate and
   * submit answer not_found, and search, start and not-found pages never list it.
   */
  adminOnly?: boolean;
  render(match: RouteMatch, backend: BrowseBackend): Promise<PageBody>;
  /**
   * A form route's fields (form-fields-line.ts), shown in one line beside every link to it: a
   * model submits from the link without opening the form first. Absent: the link says nothing
   * of them (the form lists them).
   */
  fields?(backend: BrowseBackend): Promise<readonly LineField[] | null>;
  /** The capability a form route starts (capabilityFormRoute's): a link to it stands for that next step. */
  capability?: string;
  /** Present on form routes: `submit(uri, fields)` lands here. */
  submit?(match: RouteMatch, fields: Record<string, unknown>, backend: BrowseBackend): Promise<PageBody>;
}

/** The MCP resource name of a route (one per pattern; two patterns must not share one). */
export function resourceName(pattern: string): string {
  return pattern.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "");
}

/** Why a route pattern is malformed, or null: `scheme://` then literal or `{name}` segments. */
export function patternProblem(pattern: string): string | null {
  const match = /^([a-z][a-z0-9]*):\/\/(.*)$/.exec(pattern);
  if (!match) return `route ${pattern.slice(0, 80)}: not scheme://path`;
  const path = match[2] ?? "";
  if (path === "") return null;
  for (const segment of path.split("/"))
    if (
      !/^(\{[a-z][a-zA-Z0-9_]{0,39}\}|[A-Za-z0-9_][A-Za-z0-9_.-]{0,99})$/.test(segment) ||
      segment.includes("..")
    )
      return `route ${pattern.slice(0, 80)}: segment "${segment.slice(0, 40)}" is neither a literal nor {name}`;
  return null;
}

/** Declares one browse route; the identity function keeps its types checked where it is written. */
export function defineRoute(route: RouteDefinition): RouteDefinition {
  if (!/^[a-z][a-z0-9]*:\/\//.test(route.pattern))
    throw new Error(`route ${route.pattern}: not scheme://path`);
  return route;
}
