import type { BrowseBackend, BrowseVerb, OutcomeKindLike } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { AwaitingApproval, ListedItem } from "../connectors/sdk/define-route";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { withPageScope } from "../connectors/sdk/page-scope";
import { type PageBody, startPoints } from "./browse-routes";

/** One browse answer: markdown for the model, plus the structured facts a host can use. */
export interface BrowsePage {
  uri: string;
  title: string;
  outcome: OutcomeKindLike;
  markdown: string;
  /** The links the route rendered, in order: made by `link()`, never read back out of the text. */
  links: string[];
  /** A listing's rows on this page, as its route counted them (not read back out of the text). */
  rows?: number;
  /** A listing's records on every page, where the system says. */
  total?: number;
  /** Fields a listing's rows hold beyond its table (see PageBody). */
  moreColumns?: string[];
  /** The table's money columns (PageBody's). */
  moneyColumns?: string[];
  /** A listing's rows on this page by id and title (redacted as the text is). */
  items?: ListedItem[];
  /**
   * A search's section that answers the words itself (a page or record opened in place), apart
   * from the links beside it: what the action face's search shows first when the words ask a
   * question (mcp/question-read.ts).
   */
  answer?: string;
  /** The action this page leaves waiting on a person's approval (PageBody's), for the host. */
  awaitingApproval?: AwaitingApproval;
}

/** A page's body, and for a search the section of it that answers the words (BrowsePage.answer). */
export type AnsweringBody = PageBody & { answer?: string };

/**
 * Renders one page in its own page scope: the body, its heading, and the links `link()` created
 * while they were built. What is shown passes the backend's redaction once more as a whole
 * (title, URI, text), for any echo that did not go through an escaping helper.
 */
export async function renderPage(
  backend: BrowseBackend,
  uri: string,
  build: () => AnsweringBody | Promise<AnsweringBody>,
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
    ...(body.rows === undefined ? {} : { rows: body.rows }),
    ...(body.total === undefined ? {} : { total: body.total }),
    ...(body.moreColumns ? { moreColumns: body.moreColumns.map((c) => backend.redact(c)) } : {}),
    ...(body.moneyColumns ? { moneyColumns: body.moneyColumns } : {}),
    ...(body.items
      ? { items: body.items.map((i) => ({ ...i, id: backend.redact(i.id), title: backend.redact(i.title) })) }
      : {}),
    ...(body.answer ? { answer: backend.redact(body.answer) } : {}),
    ...(body.awaitingApproval
      ? { awaitingApproval: { ...body.awaitingApproval, url: backend.redact(body.awaitingApproval.url) } }
      : {}),
  };
  return { page, body };
}

/**
 * Start points this caller may see (admin-only pages are never offered to anyone else),
 * bounded: those of `scheme`'s connector when it has one, else the start page's.
 */
export function startLinks(backend: BrowseBackend, among: readonly AnyConnector[], scheme?: string): string {
  const own = scheme && among.some((c) => c.scheme === scheme) ? scheme : undefined;
  const { routes, more } = startPoints(backend, among, own);
  const lines = routes.map((r) => `- ${link(r.title, r.pattern)} — ${r.description}`);
  if (own) lines.push(`- ${link("Start", "signpost://start")} — every system`);
  else if (more) lines.push(`- …and ${more} more connected systems: use \`search(query)\`.`);
  return lines.join("\n");
}

/** What the agent sent, as pages and audit rows may repeat it: redacted first, then cut. */
export function echo(backend: BrowseBackend, input: string, max: number): string {
  return backend.redact(input).slice(0, max);
}

/**
 * The audit row of a browse call refused before any route ran (a URI that names nothing, a
 * request state that does not verify): its target and arguments are the URI as `echo` shows it.
 * Returns that shown URI, for the page that answers the call.
 */
export async function recordRefusal(
  backend: BrowseBackend,
  verb: BrowseVerb,
  uri: string,
  refusal: { outcome: OutcomeKindLike; message: string },
): Promise<string> {
  const shown = echo(backend, uri, 200);
  await backend.record({
    verb,
    target: shown,
    arguments: { uri: shown },
    outcome: refusal.outcome,
    message: refusal.message,
    latencyMs: 0,
  });
  return shown;
}

/**
 * A refused browse call as its page: the refusal's audit row (recordRefusal), then the page that
 * answers it, under the URI as shown. One shape for every refusal that is not a missing page.
 */
export async function rejectedPage(
  backend: BrowseBackend,
  verb: BrowseVerb,
  uri: string,
  page: { title: string; message: string; markdown: string },
): Promise<BrowsePage> {
  const shown = await recordRefusal(backend, verb, uri, { outcome: "rejected", message: page.message });
  const { page: rendered } = await renderPage(backend, shown, () => ({
    title: page.title,
    outcome: "rejected",
    markdown: page.markdown,
  }));
  return rendered;
}

export async function notFoundPage(
  input: string,
  problem: string,
  backend: BrowseBackend,
): Promise<BrowsePage> {
  const among = await backend.connectors();
  const { page } = await renderPage(backend, echo(backend, input, 200), () => ({
    title: "Not found",
    outcome: "not_found",
    markdown: `Nothing lives at ${code(echo(backend, input, 120))} (${escapeText(problem)}).\n\nStart from one of these:\n\n${startLinks(backend, among, /^([a-z][a-z0-9]*):\/\//.exec(input)?.[1])}\n\nOr use \`search(query)\`.`,
  }));
  return page;
}
