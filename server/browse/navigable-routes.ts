import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { formatBrowseUri, parseBrowseUri } from "../connectors/sdk/parse-browse-uri";
import { matchRoute, routeVisibleTo } from "./browse-routes";

/** Whether the caller may navigate to the page a URI opens. */
export type MayNavigate = (uri: string) => Promise<boolean>;

/**
 * The one check a search makes before it prints a record it did not open itself (a record
 * search's hit, a row an eligibility question checks): may the caller navigate to the page it
 * links to? A denied route's data never reaches the agent, whichever way the search found it.
 *
 * The route is asked once per pattern per search: a denied route ends there, its rows never
 * asked one by one. A page under path parameters is then asked for itself, as navigate will ask
 * (a rule may name one record's page); each answer comes from the rules the gateway keeps cached,
 * so a longer list costs no query. Every question is a preview: a one-time grant stays for the
 * navigate it was given for. A URI that opens no page the caller can see is never shown.
 */
export function navigableRoutes(backend: BrowseBackend, among: readonly AnyConnector[]): MayNavigate {
  const asked = new Map<string, Promise<boolean>>();
  const ask = (target: string) => {
    let answer = asked.get(target);
    if (!answer) {
      answer = backend.authorize("navigate", target, { preview: true }).then((a) => a.decision === "allow");
      asked.set(target, answer);
    }
    return answer;
  };
  return async (uri) => {
    const parsed = parseBrowseUri(uri);
    const matched = parsed.ok ? matchRoute(parsed.value, among) : null;
    if (!parsed.ok || !matched || !routeVisibleTo(matched.route, backend)) return false;
    const { pattern } = matched.route;
    if (!(await ask(routeTarget(pattern)))) return false;
    // Without parameters the pattern is the page (a query is no part of what is authorized).
    return !pattern.includes("{") || ask(formatBrowseUri(parsed.value.scheme, parsed.value.segments));
  };
}

/**
 * A route pattern as a target the permission grammar reads: each `{param}` a segment of its own,
 * escaped (`crm://contact/%7Bid%7D`). Asked as written, `{id}` is no valid segment, and the
 * target then matched only `*` rules: a rule `crm://contact/*` would not have hidden one contact.
 */
export function routeTarget(pattern: string): string {
  return pattern.replace(/\{([^}/]*)\}/g, (_, name: string) => `%7B${name}%7D`);
}
