import { link } from "../connectors/sdk/markdown";
import { recordLink } from "../connectors/sdk/page-scope";
import { showsLink } from "../connectors/sdk/row-uri-pattern";
import type { BrowsePage } from "./render-page";

/** How much of a page a search answer carries (about 600 tokens): a listing's first rows. */
export const OPENED_CHARS = 2_400;

/**
 * A page's body as a search answer carries it: without its title line, cut at a line under
 * OPENED_CHARS with the link to the whole page, and the links the kept part shows recorded as
 * links of this answer. `keep` names a section said after the cut when it fell in the cut part.
 */
export function cutPage(page: BrowsePage, keep?: string): string {
  const body = page.markdown.replace(/^# .*\n+/, "").trimEnd();
  let kept = body;
  if (body.length > OPENED_CHARS) {
    const cut = body.lastIndexOf("\n", OPENED_CHARS);
    const at = cut > 0 ? cut : OPENED_CHARS;
    const start = keep ? body.indexOf(`\n${keep}\n`) : -1;
    const end = start >= 0 ? body.indexOf("\n## ", start + 1) : -1;
    const section = start >= at ? `\n\n${body.slice(start + 1, end > start ? end : undefined).trim()}` : "";
    kept = `${body.slice(0, at)}\n\n… cut here: ${link("the whole page", page.uri)}${section}`;
  }
  // Its own link first, then those of the rows the kept part shows: links of this answer too.
  for (const l of page.links) if (showsLink(kept, l)) recordLink(l);
  return kept;
}
