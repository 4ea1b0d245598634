import type { NodeDefinition, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { present } from "./present-value";

/**
 * The fields sent that the chosen value of the node's `usedOnlyWhen` choice does not use: each
 * refused with the values that take it. Input a path would ignore is never dropped in silence:
 * on a money move the person would approve something other than what the user asked for.
 */
export function unusedFieldErrors(
  node: Pick<NodeDefinition<unknown>, "usedOnlyWhen">,
  values: Values,
): ValidationError[] {
  const rule = node.usedOnlyWhen;
  const chosen = rule ? values[rule.field] : undefined;
  if (!rule || typeof chosen !== "string") return [];
  return Object.entries(rule.takes).flatMap(([field, by]) =>
    present(values[field]) && !by.includes(chosen)
      ? [
          {
            field,
            code: "field_not_used",
            message: `${rule.field} ${chosen} does not use ${field} (only ${by.join(" or ")} ${by.length > 1 ? "take" : "takes"} it): nothing was taken from it; clear it (${field}: null) or set ${rule.field} to ${by.join(" or ")}`,
          },
        ]
      : [],
  );
}
