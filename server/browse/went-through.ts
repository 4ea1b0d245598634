import type { RouteDefinition } from "../connectors/sdk/define-route";

/**
 * Whether a record of `route` in state `value` of filter `key` went through one of the `denied`
 * states, by the route's lifecycle: it is later on the line ("not shipped" → delivered, as a
 * delivered order shipped). The first state is where a record starts, no event: "not waiting for
 * payment" leaves out that state alone; a state off the line (cancelled) went through none.
 */
export function wentThrough(
  route: RouteDefinition,
  key: string,
  denied: readonly string[],
  value: string,
): boolean {
  const line = route.lifecycle?.key === key ? route.lifecycle.order : [];
  const at = line.indexOf(value);
  return at > 0 && denied.some((d) => line.indexOf(d) > 0 && line.indexOf(d) < at);
}
