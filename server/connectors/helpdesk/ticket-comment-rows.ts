import type { BackendOutcome, Row } from "../sdk/browse-backend";
import type { PageBody } from "../sdk/define-route";
import { link } from "../sdk/markdown";
import type { HelpdeskComment, HelpdeskTeammate } from "./helpdesk-adapter";

/** Comments a ticket's page and view show: the newest, so "what did we tell them" is read there. */
export const COMMENTS_SHOWN = 10;

/** A ticket's comments page address: where the earlier ones are read, a page at a time. */
export const commentsUri = (ticketId: string) => `helpdesk://ticket/${ticketId}/comments`;

/**
 * One row per comment, in the thread's order: when, who (a teammate by name, the requester as
 * "customer": an id or an address alone made a model guess who spoke), whether the customer sees
 * it, and the text.
 */
export function commentRows(
  comments: readonly HelpdeskComment[],
  mates: readonly HelpdeskTeammate[],
  requesterEmail: string,
) {
  const names = new Map(mates.map((m) => [m.id, m.name]));
  return comments.map((c) => ({
    at: c.created_at,
    by:
      c.author.toLowerCase() === requesterEmail.toLowerCase()
        ? "customer"
        : (names.get(c.author) ?? c.author),
    visible_to: c.internal ? "staff only" : "customer",
    text: c.body,
  }));
}

/**
 * A ticket page's view without its `earlier_comments`, with the line under the comments that
 * says their order (set AF: two comments stamped the same minute left "what was the last
 * message?" to a guess) and the earlier ones as a link (a view's values are escaped as data, so
 * an address there is not followable).
 */
export function withCommentsLine(view: BackendOutcome, page: (view: BackendOutcome) => PageBody): PageBody {
  const record = view.view as Row | undefined;
  if (!record || !Array.isArray(record.comments)) return page(view);
  const earlier = record.earlier_comments as { count?: unknown; read_at?: unknown } | undefined;
  const { earlier_comments: _said, ...rest } = record;
  const body = page({ ...view, view: rest });
  const order = "Oldest first: the last row is the latest.";
  const line =
    earlier && typeof earlier.read_at === "string"
      ? `${order} ${Number(earlier.count)} earlier comments: ${link("read them, oldest first", earlier.read_at)}`
      : order;
  // Right under the comments table, which ends the record's part (the sections come after it).
  const at = body.markdown.indexOf("\n\n## ");
  const markdown =
    at < 0
      ? `${body.markdown}\n\n${line}`
      : `${body.markdown.slice(0, at)}\n\n${line}${body.markdown.slice(at)}`;
  return { ...body, markdown };
}
