import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { code, link } from "../connectors/sdk/markdown";
import { parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { matchRoute, routeVisibleTo } from "./browse-routes";
import { guarded } from "./guarded";
import { ownBackend } from "./own-backend";
import { placeholderForm } from "./placeholder-form";
import { type BrowsePage, notFoundPage, recordRefusal, rejectedPage, renderPage } from "./render-page";

/** `submit(uri, fields)`: starts or advances the capability behind the form. */
export async function submit(
  backend: BrowseBackend,
  input: string,
  fields: Record<string, unknown>,
): Promise<BrowsePage> {
  const notFound = async (target: string, problem: string) => {
    await recordRefusal(backend, "submit", target, { outcome: "not_found", message: problem });
    return notFoundPage(target, problem, backend);
  };
  // `helpdesk://ticket/{id}/close` with the user's words: the form of the record they name,
  // submitted at that record's own link (placeholder-form.ts).
  const placed = await placeholderForm(backend, input, fields);
  if (placed && "problem" in placed)
    return rejectedPage(backend, "submit", input, {
      title: "Which record?",
      message: placed.problem,
      markdown: placed.problem,
    });
  if (placed) return submit(backend, placed.uri, fields);
  const parsed = parseBrowseUri(input);
  if (!parsed.ok) return notFound(input, parsed.problem);
  const uri = parsed.value;
  const among = await backend.connectors();
  const matched = matchRoute(uri, among);
  const found = matched && routeVisibleTo(matched.route, backend) ? matched : null;
  if (!found) return notFound(uri.uri, "no such page");
  const { route, match } = found;
  if (!route.submit) {
    const { page } = await renderPage(backend, uri.uri, () => ({
      title: "Not a form",
      outcome: "rejected",
      markdown: `${code(uri.uri)} is a page, not a form: use \`navigate\`.\n\n${link(route.title, uri.uri)}`,
    }));
    return page;
  }
  const submitFn = route.submit;
  return guarded(
    backend,
    {
      verb: "submit",
      target: uri.uri,
      arguments: { uri: uri.uri, fields: redactFields(route.pattern, fields) },
      skipAuthorization: route.pattern === "signpost://permissions/request",
    },
    () => submitFn(match, fields, ownBackend(backend, among, uri.scheme)),
  );
}

/** Secret values never reach an audit row or a page. */
function redactFields(pattern: string, fields: Record<string, unknown>): Record<string, unknown> {
  if (!pattern.startsWith("config://")) return fields;
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, k === "value" ? "[redacted]" : v]));
}
