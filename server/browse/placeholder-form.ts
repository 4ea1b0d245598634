import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { code } from "../connectors/sdk/markdown";
import { parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { matchRoute, routeVisibleTo } from "./browse-routes";

/** A route parameter left as written in a form's link: `helpdesk://ticket/{id}/close`. */
const PLACEHOLDER = /\{([A-Za-z_]{1,30})\}/g;
/** Stands for the placeholder while the route is looked up: no record's id holds it. */
const PROBE = "signpost-placeholder";

/** The form link with the record the user's words name, or why there is none (markdown). */
export type PlaceholderForm = { uri: string } | { problem: string };

/**
 * Set BG, BL: models searched for a record only to learn its id, then submitted its form (two
 * calls where the wrapper's model, which had the id from a listing, took one). A form's link sent
 * with its placeholder as written, beside the user's words, stands for the record those words
 * name: the form's own capability is asked, as a dry run (nothing is started, no key is spent),
 * which record its start would take from the words, and the form is then submitted at that
 * record's own link. So everything after is the concrete form's submit: its permission decided
 * on the record's link (a rule on one record holds: review 59b found the first version authorized
 * `{id}` itself), its audit row, its approval. Null where the link holds no placeholder.
 */
export async function placeholderForm(
  backend: BrowseBackend,
  input: string,
  fields: Record<string, unknown>,
): Promise<PlaceholderForm | null> {
  const path = input.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  const held = [...(path.split("?")[0] ?? "").matchAll(PLACEHOLDER)];
  if (!held.length) return null;
  const words = fields.user_words;
  if (held.length > 1 || typeof words !== "string" || !words.trim())
    return {
      problem: `${code(held[0]?.[0] ?? "{id}")} stands for a record: send the user's words as user_words (they name it), or the record's own id in its place.`,
    };
  const placeholder = held[0]?.[0] ?? "";
  const probe = parseBrowseUri(input.replace(placeholder, PROBE));
  const matched = probe.ok ? matchRoute(probe.value, await backend.connectors()) : null;
  const capability = matched?.route.capability;
  if (!matched || !capability || !matched.route.submit || !routeVisibleTo(matched.route, backend))
    return { problem: `${code(placeholder)} stands for a record only in the link of a capability's form.` };
  // Nothing is read for words whose form the caller may not submit at all (review 60d: a dry run
  // behind a denied system answered with the records it had looked at), nor where starting its
  // capability is allowed only by a one-time grant, which the dry run would spend (review 60e).
  const may = (verb: "submit" | "start" | "navigate", target: string) =>
    backend.authorize(verb, target, { preview: true });
  if ((await may("submit", input)).decision === "deny") return { problem: NONE_TAKEN };
  const start = await may("start", `capability:${capability}`);
  if (start.decision !== "allow" || start.source === "grant") return { problem: NONE_TAKEN };
  const preview = await backend.startAction({ capability, intent: words, dry_run: true });
  const entity = (preview as { entity?: { id?: unknown } }).entity;
  const id = typeof entity?.id === "string" ? entity.id : undefined;
  if (!id) return { problem: NONE_TAKEN };
  const at = input.indexOf(placeholder);
  const uri = input.replace(placeholder, encodeURIComponent(id));
  const page = uri.slice(0, at + encodeURIComponent(id).length);
  // The record is named only where its own page may be read and its form submitted (review 60e:
  // a navigate deny on one ticket hid it from search, and its form by `{id}` showed its subject);
  // its other refusals (an ask, a state) are the concrete form's answer then. The preview's own
  // words are never shown: they read records no rule was asked about.
  if ((await may("navigate", page)).decision === "deny" || (await may("submit", uri)).decision === "deny")
    return { problem: NONE_TAKEN };
  return { uri };
}

/** The one answer where no record is taken from the words, whatever the reason. */
const NONE_TAKEN =
  "No one record was taken from the user's words for this form (none or several fit, or none you may change here): find it (search), then submit the form at its own link.";
