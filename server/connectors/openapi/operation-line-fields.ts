import { fieldType } from "../sdk/field-type";
import type { LineField } from "../sdk/form-fields-line";
import type { OperationPlan } from "./plan-operations";

/**
 * An imported write form's fields as a link to it lists them (form-fields-line.ts): its query,
 * header and body fields, the path's own values coming from the link's URI.
 */
export function operationLineFields(plan: OperationPlan): LineField[] {
  return (plan.fields ?? [])
    .filter((f) => f.where !== "path")
    .map((f) => {
      const typed = fieldType(f.schema as Record<string, unknown>);
      return {
        name: f.name,
        required: f.required,
        type: typed.type,
        ...(typed.values ? { values: typed.values.slice(0, 30) } : {}),
        ...(f.schema.default !== undefined ? { default: f.schema.default } : {}),
        description: f.description,
      };
    });
}
