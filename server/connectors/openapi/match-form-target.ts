import { parseBrowseUri, segmentValue } from "../sdk/parse-browse-uri";
import type { OperationPlan } from "./plan-operations";

/**
 * The write form a URI names (`legacy://v1/tickets/tkt_2/update`), with the document's path
 * parameters read from it, or null. The form URI is what an imported write is granted on and
 * what its action is about, so it is parsed as strictly as any browse URI; a path value is the
 * one its segment stands for (`%2D5` and `-5` alike).
 */
export function matchFormTarget(
  plans: Iterable<OperationPlan>,
  target: unknown,
): { plan: OperationPlan; uri: string; path: Record<string, string> } | null {
  if (typeof target !== "string") return null;
  const parsed = parseBrowseUri(target);
  if (!parsed.ok || Object.keys(parsed.value.query).length) return null;
  const { segments, uri } = parsed.value;
  for (const plan of plans) {
    if (plan.kind !== "form") continue;
    const parts = plan.pattern.slice(plan.pattern.indexOf("://") + 3).split("/");
    if (parts.length !== segments.length) continue;
    const path: Record<string, string> = {};
    const fits = parts.every((part, i) => {
      const segment = segments[i] as string;
      const param = /^\{(.+)\}$/.exec(part)?.[1];
      if (!param) return part === segment;
      path[plan.params[param] ?? param] = segmentValue(segment);
      return true;
    });
    if (fits) return { plan, uri, path };
  }
  return null;
}
