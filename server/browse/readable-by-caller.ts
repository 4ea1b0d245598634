import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RouteDefinition } from "./browse-routes";
import { schemeOf } from "./searchable-systems";

/**
 * The pages of the ranked list the caller may read. A connector whose reads are only for some
 * roles by default (an imported system) is asked the permission question for its pages, so a
 * member is not offered pages that would answer "permission required"; the others are read by
 * default and pass as they are.
 */
export async function readableByCaller<T extends { r: RouteDefinition }>(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  ranked: T[],
): Promise<T[]> {
  const role = backend.who().role;
  const restricted = new Set(
    among.filter((c) => c.defaultAccess && !c.defaultAccess.read.includes(role)).map((c) => c.scheme),
  );
  if (restricted.size === 0) return ranked;
  const allowed = await Promise.all(
    ranked.map(async ({ r }) => {
      if (!restricted.has(schemeOf(r.pattern))) return true;
      // A preview: offering a page uses no one-time grant up (it is for the navigate itself).
      return (await backend.authorize("navigate", r.pattern, { preview: true })).decision === "allow";
    }),
  );
  return ranked.filter((_, i) => allowed[i]);
}
