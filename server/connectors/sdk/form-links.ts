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
  /** Who approves that next step for this caller ("no approval", "approval: an admin"), set by the page. */
  start?: string;
  /** The tool that next step calls (`start_action`): the last line says it once for every form. */
  tool?: string;
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
 * Form links as list lines, then the one line that says how to read them, where any carries
 * fields. A form that starts a capability is named by it, with who approves it for this caller
 * (`- [change_ticket_priority](…/priority) `priority*: low/…` · no approval`); the user's words,
 * which every such form takes, are said once in that last line, not on each: a ticket's six forms
 * were 305 of its page's 488 tokens (set AA), read on every search that opened one.
 */
export function formLinkLines(links: readonly FormLink[]): string {
  const withFields = links.filter((l) => l.fields?.length);
  const words =
    withFields.length > 0 && withFields.every((l) => l.fields?.some((f) => f.name === USER_WORDS));
  const lines = links.map(({ label, uri, fields, capability, start }) => {
    const shown = words ? fields?.filter((f) => f.name !== USER_WORDS) : fields;
    const line = shown ? formFieldsLine(shown) : "";
    if (start && capability) return `- ${link(capability, uri)}${line ? ` ${line}` : ""} · ${start}`;
    return `- ${link(label, uri)}${line ? ` — ${line}` : ""}${start ? ` (${start})` : ""}`;
  });
  const listed = links.flatMap(({ fields }) => fields ?? []);
  const tool = links.find((l) => l.start && l.capability)?.tool;
  if (listed.length)
    lines.push(
      fieldsKey(
        listed.some((f) => f.name === USER_WORDS),
        words,
        tool,
      ),
    );
  return lines.join("\n");
}
