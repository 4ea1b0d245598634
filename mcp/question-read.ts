import type { CallToolResult } from "@modelcontextprotocol/server";
import { search } from "@/server/browse/search";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { queryClauses, questionClauses } from "@/server/engine/query-clauses";

/**
 * Whether the words only ask to know ("what would it cost with shipping?", "when was it
 * delivered?", "which address is the office one?"): every clause that asks is a question, none
 * an imperative ("… and buy it"). Pure grammar (query-clauses.ts), no business words.
 */
export function onlyAsks(query: string): boolean {
  const lower = query.toLowerCase();
  const questions = new Set(questionClauses(lower));
  const asks = queryClauses(lower).filter((c) => c.role === "request");
  return questions.size > 0 && asks.every((c) => questions.has(c.text));
}

/**
 * The read that answers a question, for search_capabilities: the page or record the browse
 * search opens for the same words (its own permission check and audit row), or null when the
 * words do not only ask, or no page answers them. Issue 23 (set D, task 1): a question about a
 * price got only the capability that places the purchase, and the model went through its steps
 * to read a price a page already states.
 */
export async function questionRead(backend: BrowseBackend, query: string): Promise<string | null> {
  if (!onlyAsks(query)) return null;
  const page = await search(backend, query);
  return page.outcome === "applied" && page.answer ? page.answer : null;
}

/**
 * search_capabilities' answer with the read that answers the question before it: the page first,
 * then the capabilities, for a change the user may ask next. Unchanged when no read answers.
 */
export function withReadFirst(result: CallToolResult, read: string | null): CallToolResult {
  if (!read) return result;
  const found = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  const structured = result.structuredContent ?? {};
  return {
    ...result,
    content: [
      {
        type: "text",
        text: `Your words ask a question; this read answers it (nothing changes):\n\n${read}\n\n## Capabilities, for a change the user asks next\n\n${found}`,
      },
    ],
    structuredContent: { ...structured, read_first: read },
  };
}
