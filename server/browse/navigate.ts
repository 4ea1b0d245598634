import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { matchRoute, routeVisibleTo } from "./browse-routes";
import { filteredLine } from "./filtered-line";
import { guarded } from "./guarded";
import { ownBackend } from "./own-backend";
import { type BrowsePage, notFoundPage, recordRefusal } from "./render-page";
import { rowFormsLine } from "./row-forms-line";
import { rowsOfValues, severalValues } from "./several-values";

/** The row forms' line right under the listing's row address. */
function withFormsLine(markdown: string, forms: string | null): string {
  return forms ? markdown.replace(/^Each row's page: `[^`]+`$/m, (line) => `${line}\n${forms}`) : markdown;
}

/** `navigate(uri)`: the page at a URI, a form on form routes, a not-found page otherwise. */
export async function navigate(backend: BrowseBackend, input: string): Promise<BrowsePage> {
  const parsed = parseBrowseUri(input);
  if (!parsed.ok) {
    const page = await notFoundPage(input, parsed.problem, backend);
    await recordRefusal(backend, "navigate", input, { outcome: "not_found", message: parsed.problem });
    return page;
  }
  const uri = parsed.value;
  const among = await backend.connectors();
  const matched = matchRoute(uri, among);
  // A route the caller may not see answers exactly like one that does not exist.
  const found = matched && routeVisibleTo(matched.route, backend) ? matched : null;
  if (!found) {
    const page = await notFoundPage(uri.uri, "no such page", backend);
    await backend.record({
      verb: "navigate",
      target: uri.uri,
      arguments: { uri: uri.uri },
      outcome: "not_found",
      message: "no such page",
      latencyMs: 0,
    });
    return page;
  }
  // Scoped to this page, its permission check included: its read of the record it shows is
  // part of this call (this row, this decision), not a call of its own.
  const page = backend.forPage?.(uri.uri) ?? backend;
  return guarded(
    page,
    {
      verb: "navigate",
      target: uri.uri,
      arguments: { uri: uri.uri },
      skipAuthorization: found.route.pattern === "signpost://permissions/request",
    },
    async () => {
      const scoped = ownBackend(page, among, uri.scheme);
      // A filter sent several of its values at once: the listing without it, cut to their rows.
      const several = severalValues(found.route, uri);
      const wide = several ? matchRoute(several.without, among) : null;
      const wideBody =
        several && wide?.route === found.route ? await wide.route.render(wide.match, scoped) : null;
      const cut = wideBody && several ? rowsOfValues(wideBody, several) : null;
      const match = cut && wide ? wide.match : found.match;
      const body = cut ?? (await found.route.render(found.match, scoped));
      const filtered = await filteredLine(found.route, match, body, scoped);
      const forms = await rowFormsLine(page, among, body.markdown);
      const markdown = [filtered, withFormsLine(body.markdown, forms)].filter(Boolean).join("\n\n");
      return { ...body, markdown };
    },
  );
}
