import type { BrowseBackend, Row } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { fieldsKey, formFieldsLine, type LineField } from "../connectors/sdk/form-fields-line";
import { routeFields } from "../connectors/sdk/form-links";
import { code, escapeText } from "../connectors/sdk/markdown";
import { USER_WORDS } from "../connectors/sdk/user-words-field";
import { FUNCTION_WORDS } from "../function-words";

/**
 * A search's capabilities, each with the form it is filled in on, the first such form with its
 * fields unless the answer's pages already listed a form's (`fieldsShown`): a model that found the
 * form here opened it only to learn its fields before submitting (issue 23). One form's fields,
 * the best match's, keep the answer short.
 */
export async function capabilitiesSection(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  top: readonly Row[],
  fieldsShown: boolean,
  query = "",
): Promise<string> {
  const forms: Record<string, string> = Object.assign({}, ...among.map((c) => c.forms ?? {}));
  const routes = among.flatMap((c) => c.routes);
  const first = fieldsShown
    ? null
    : await firstFormFields(
        backend,
        top.map((c) => routes.find((r) => r.pattern === forms[String(c.capability ?? c.id)])),
      );
  const lines = top.map((c, i) => {
    const id = String(c.capability ?? c.id);
    const form = forms[id];
    const title = String(c.title ?? "");
    const said =
      typeof c.trigger === "string"
        ? saidFor(query, `${title} ${String(c.applies_to ?? "")}`, c.trigger)
        : "";
    // Who must approve it for this caller (the gateway's words), so a start is sent right.
    const approval = typeof c.approval === "string" ? `; ${escapeText(c.approval)}` : "";
    const fields = first?.index === i ? `, ${formFieldsLine(first.fields)}` : "";
    return `- ${code(id)} — ${escapeText(title + said)}${form ? ` (form: ${code(form)}${fields})` : ""}${approval}`;
  });
  if (first) lines.push(fieldsKey(first.fields.some((f) => f.name === USER_WORDS)));
  return `## Capabilities\n\n${lines.join("\n")}`;
}

/**
 * Where a word of the query is in what a capability is for but not in its title or record kind,
 * that clause of its use: "cancel order" listed `after_sales` as "After-sales request", and a
 * model looking to cancel a paid order opened each order to learn that after-sales does it (set
 * BE). One clause, of a few words: a list of single words ("(refund, cancel, …)") says nothing of
 * when.
 */
function saidFor(query: string, named: string, use: string): string {
  const words = (text: string): string[] => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  // Its title's words and its record's kind ("order", "orders") say nothing new.
  const known = new Set(words(named).flatMap((w) => [w, `${w}s`]));
  const asked = words(query).filter((w) => !known.has(w) && !SKIP.has(w));
  if (!asked.length) return "";
  // The clause holding most of the words, the first among equals (review 59c: "take tkt_3 off
  // hold" said "… wants a ticket on hold or pending", where "or off hold back to open" was meant).
  const held = (part: string) => asked.filter((w) => words(part).includes(w)).length;
  const [clause] = use
    .replace(/\s*\([^()]*\)/g, "")
    .split(/[,.;:]/)
    .map((part) => part.trim().replace(/^(?:or|and|but)\s+/i, ""))
    .filter((part) => words(part).length >= 3 && part.length <= 70 && held(part) > 0)
    .sort((a, b) => held(b) - held(a));
  return clause ? `: ${clause}` : "";
}

/** Words that never say what the user asks for: function words, articles and linking words. */
const SKIP = new Set([...FUNCTION_WORDS, "the", "and", "for", "with", "not", "but", "per", "into", "onto"]);

/** The first of these routes that is a form declaring its fields: its place and fields. */
export async function firstFormFields(
  backend: BrowseBackend,
  routes: ReadonlyArray<RouteDefinition | undefined>,
): Promise<{ index: number; fields: readonly LineField[] } | null> {
  for (const [index, route] of routes.entries()) {
    const fields = await routeFields(backend, route);
    if (fields) return { index, fields };
  }
  return null;
}
