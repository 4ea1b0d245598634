import { EVERY_WORDS } from "../function-words";
import type { RouteDefinition } from "./browse-routes";

/** How far the best listing must lead the next page (in route score) to be opened in place. */
const OPEN_LEAD = 0.5;

/**
 * The URI of the best route when it is a start-point listing with no path parameters that a word
 * of the query names (score ≥ 2) and that leads the next page clearly; null otherwise. Forms and
 * pages under path parameters answer no "list …" question: only listings compete.
 */
export function clearListing(
  routes: Array<{ r: RouteDefinition; score: number }>,
  mine: boolean,
  q = "",
): string | null {
  const listing = (r: RouteDefinition) => !r.pattern.includes("{") && !r.submit;
  const [best, next] = routes.filter(({ r }) => listing(r));
  // Where the words ask about many records ("every order", "my orders"), a page of one record
  // (under path parameters) ranked above the listing is no rival: it answers nothing without its
  // record (set AT: "What's the status of every order I placed this month?" ranked one order's
  // tracking page first, and no listing opened). "Track my order" keeps that page (review 55c).
  const said: string[] = q.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const many =
    !!best && (said.includes(best.r.title.toLowerCase()) || said.some((w) => EVERY_WORDS.includes(w)));
  const first = many ? routes.find(({ r }) => !r.pattern.includes("{")) : routes[0];
  if (!best || best !== first || !best.r.startPoint || best.score < 2) return null;
  if (next && best.score - next.score < OPEN_LEAD) return null;
  return mine && best.r.example?.endsWith("?mine=1") ? best.r.example : best.r.pattern;
}
