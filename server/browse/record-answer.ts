import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { startsLineCapability } from "../connectors/sdk/form-fields-line";
import { link } from "../connectors/sdk/markdown";
import { cutPage } from "./cut-page";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";

/**
 * A record's page as a search carries it: headed by its link, cut as a named listing is, with
 * the actions its page offers on it kept (the capabilities that apply to this record, not the
 * catalog's matches for the words).
 */
export function openedRecord(page: BrowsePage): string {
  // The heading's link first: link() records the page's links in the order they are made.
  const heading = `## ${link(page.title, page.uri)} (opened here)`;
  return `${heading}\n\n${cutPage(page, "## Actions").replace(startsLineCapability("start_action"), FOUND_BY_WORDS)}`;
}

/**
 * Where a search found the record before a change, the start that needed no search says so.
 * Sets DA, DB, DD, DE: players on the browse face searched for each record, then submitted its
 * form (two calls, ~450 tokens for the search), where start_action by the user's words takes one.
 */
const FOUND_BY_WORDS =
  "(or start_action with just the user's words: it finds the record itself, no search needed)";

/**
 * The answer to a search that names one record: its page opened as `navigate` opens it (the same
 * permission check and audit row), as openedRecord carries it. A record that is not there for
 * the caller (another tenant's, none) answers as navigate does. Null when the query names no record.
 */
export async function recordAnswer(
  backend: BrowseBackend,
  uris: readonly string[],
): Promise<Pick<BrowsePage, "outcome" | "markdown"> | null> {
  let refused: BrowsePage | null = null;
  // Two kinds with the same prefix (two systems): the first page that is there answers.
  for (const uri of uris) {
    const page = await navigate(backend, uri);
    if (page.outcome === "applied") return { outcome: "applied", markdown: openedRecord(page) };
    refused ??= page;
  }
  if (!refused) return null;
  return { outcome: refused.outcome, markdown: refused.markdown.replace(/^# .*\n+/, "").trimEnd() };
}
