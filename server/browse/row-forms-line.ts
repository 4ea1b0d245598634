import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { code } from "../connectors/sdk/markdown";
import { visibleRoutes } from "./browse-routes";

/** The listing's one row address (row-uri-pattern.ts), as its page states it. */
const ROW_PAGE = /^Each row's page: `([a-z][a-z0-9+.-]*:\/\/[^`]+)`$/m;

/**
 * The forms each row of a listing opens, said once under its row address: "Each row's forms:
 * `shop://order/{id}/…` cancel, pay (submit one with just user_words, …)". Set
 * AZ: a model that had listed the orders opened the unpaid order's page (535 tokens) to learn
 * where its cancel form was, a call the wrapper's cancelOrder did not need. Only forms the
 * caller may submit and whose capability they may start (previews: no one-time grant used); at
 * most a dozen; null when the listing has no row address or no form under it.
 */
export async function rowFormsLine(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  markdown: string,
): Promise<string | null> {
  const row = ROW_PAGE.exec(markdown)?.[1];
  if (!row) return null;
  const base = `${row.replace(/\{[^}]+\}/g, "{}")}/`;
  const forms = visibleRoutes(backend, among).filter(
    (r) => r.submit && r.pattern.replace(/\{[^}]+\}/g, "{}").startsWith(base),
  );
  const tails = forms.map((r) => r.pattern.slice(r.pattern.lastIndexOf("/") + 1));
  if (!forms.length || tails.some((t) => t.includes("{"))) return null;
  // The route's permission and, for a form that starts a capability, the start's (review 57b:
  // a customer was offered the ticket forms, each refused as "not granted to role member").
  const may = async (verb: "submit" | "start", target: string) =>
    (await backend.authorize(verb, target, { preview: true })).decision === "allow";
  const allowed = await Promise.all(
    forms.map(
      async (r) =>
        (await may("submit", r.pattern)) &&
        (!r.capability || (await may("start", `capability:${r.capability}`))),
    ),
  );
  const mine = tails.filter((_, i) => allowed[i]).slice(0, MAX_FORMS);
  if (!mine.length) return null;
  // Set BE: "(submit one with user_words)" left a model unsure it could without the form's fields:
  // it opened the row's page for them (591 tokens), or guessed their names. `{id}` left as
  // written takes the row the words name (placeholder-form.ts), unsaid here: set BN's players,
  // told so on this line, still searched for the row first (7 tokens on every listing, unused).
  return `Each row's forms: ${code(`${row}/…`)} ${mine.join(", ")} (submit one with just user_words, the user's request: it fills the fields)`;
}

/** Whether a route is one of the row forms an opened listing's line names (search leaves those out of its other pages). */
export function underRowForms(markdown: string, pattern: string): boolean {
  const forms = /^Each row's forms: `([^`]+)\/…` ([^(]+)/m.exec(markdown);
  if (!forms?.[1] || !forms[2]) return false;
  const tail = pattern.slice(pattern.lastIndexOf("/") + 1);
  const base = (p: string) => p.replace(/\{[^}]+\}/g, "{}");
  return base(pattern) === `${base(forms[1])}/${tail}` && forms[2].split(",").some((t) => t.trim() === tail);
}

const MAX_FORMS = 12;
