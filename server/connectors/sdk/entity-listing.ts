import type { AnyConnector } from "./define-connector";

/**
 * The listing page of the records a capability applies to (`tickets` for a ticket's change): a
 * start-point page of the capability's connector, taking no parameters and no submit, whose last
 * segment names the entity (its name or label, or their plural). Undefined when none does: an
 * answer then says how many more records there are without where.
 */
export function entityListing(connectors: readonly AnyConnector[], capabilityId: string): string | undefined {
  const connector = connectors.find((c) => c.capabilities.some((cap) => cap.id === capabilityId));
  const wanted = connector?.capabilities.find((cap) => cap.id === capabilityId)?.appliesTo.entity;
  if (!connector || !wanted) return undefined;
  const entity = connector.entities.find(
    (e) => e.name.toLowerCase() === wanted.toLowerCase() || e.label.toLowerCase() === wanted.toLowerCase(),
  );
  const names = [wanted, entity?.name, entity?.label]
    .filter((n): n is string => !!n)
    .map((n) => n.toLowerCase().replace(/[^a-z0-9]+/g, ""));
  const forms = new Set(names.flatMap((n) => [n, `${n}s`, `${n}es`]));
  return connector.routes.find((r) => {
    if (!r.startPoint || r.submit || r.adminOnly || r.pattern.includes("{")) return false;
    const last = r.pattern.split("://")[1]?.split("/").pop() ?? "";
    return forms.has(last.toLowerCase().replace(/[^a-z0-9]+/g, ""));
  })?.pattern;
}
