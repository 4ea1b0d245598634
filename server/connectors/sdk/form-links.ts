import type { BrowseBackend } from "./browse-backend";
import type { RouteDefinition } from "./define-route";
import { fieldsKey, formFieldsLine, type LineField } from "./form-fields-line";
import { link } from "./markdown";
import { parseBrowseUri } from "./parse-browse-uri";
import { USER_WORDS } from "./user-words-field";

/** A link to a form, with the form's fields and capability where its route declares them. */
export interface FormLink {
  label: string;
  uri: string;
  fields?: readonly LineField[];
  /** The capability the form starts (its route's): the page's next step for it is said on this line. */
  capability?: string;
  /** That next step in the action face's words (`start_action` `x`; who approves), set by the page. */
  start?: string;
}

/**
 * The route of a connector's page at `uri` (a URI of one of the caller's connectors), or null:
 * the same pattern match navigate makes, over the connector of the URI's scheme only.
 */
export async function routeAt(backend: BrowseBackend, uri: string): Promise<RouteDefinition | null> {
  const parsed = parseBrowseUri(uri);
  if (!parsed.ok) return null;
  const { scheme, segments } = parsed.value;
  const connector = (await backend.connectors()).find((c) => c.scheme === scheme);
  for (const route of connector?.routes ?? []) {
    const parts = patternParts(route);
    if (parts.length !== segments.length) continue;
    if (parts.every((p, i) => (p.startsWith("{") && p.endsWith("}")) || p === segments[i])) return route;
  }
  return null;
}

const partsOf = new WeakMap<RouteDefinition, readonly string[]>();

/** A route's pattern as path parts (`shop://order/{id}` → `order`, `{id}`), split once per route. */
function patternParts(route: RouteDefinition): readonly string[] {
  let parts = partsOf.get(route);
  if (!parts) {
    const path = route.pattern.split("://")[1] ?? "";
    parts = path === "" ? [] : path.split("/");
    partsOf.set(route, parts);
  }
  return parts;
}

/** The fields of the form a route answers, where it says them. */
export async function routeFields(
  backend: BrowseBackend,
  route: RouteDefinition | null | undefined,
): Promise<readonly LineField[] | null> {
  return route?.submit && route.fields ? await route.fields(backend) : null;
}

/** Each link with the fields of its form (read from its route), so it can be submitted at once. */
export async function withFormFields(
  backend: BrowseBackend,
  links: ReadonlyArray<[string, string]>,
): Promise<FormLink[]> {
  return Promise.all(
    links.map(async ([label, uri]): Promise<FormLink> => {
      const route = await routeAt(backend, uri);
      const fields = await routeFields(backend, route);
      return {
        label,
        uri,
        ...(fields ? { fields } : {}),
        ...(route?.capability ? { capability: route.capability } : {}),
      };
    }),
  );
}

/**
 * Form links as list lines (`- [Change priority](…/priority) — `priority*: low/…``), then the one
 * line that says how to read them, where any carries fields.
 */
export function formLinkLines(links: readonly FormLink[]): string {
  const lines = links.map(
    ({ label, uri, fields, start }) =>
      `- ${link(label, uri)}${fields ? ` — ${formFieldsLine(fields)}` : ""}${start ? ` (${start})` : ""}`,
  );
  const listed = links.flatMap(({ fields }) => fields ?? []);
  if (listed.length) lines.push(fieldsKey(listed.some((f) => f.name === USER_WORDS)));
  return lines.join("\n");
}
