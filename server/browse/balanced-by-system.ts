import type { RouteDefinition } from "./browse-routes";

/**
 * The best `count` of a ranked list with at most `perSystem` from one system while others have
 * matches: with many systems connected, one system's five near matches do not crowd out another's
 * one right page. Order within the answer stays the ranking's.
 */
export function balancedBySystem<T extends { r: RouteDefinition }>(
  ranked: T[],
  count: number,
  perSystem: number,
): T[] {
  const taken: T[] = [];
  const per = new Map<string, number>();
  for (const x of ranked) {
    const scheme = x.r.pattern.split("://")[0] ?? "";
    if ((per.get(scheme) ?? 0) >= perSystem) continue;
    per.set(scheme, (per.get(scheme) ?? 0) + 1);
    taken.push(x);
    if (taken.length === count) break;
  }
  // Fewer systems than places: the rest go to the best pages left, whatever their system.
  for (const x of ranked) {
    if (taken.length >= count) break;
    if (!taken.includes(x)) taken.push(x);
  }
  return ranked.filter((x) => taken.includes(x));
}
