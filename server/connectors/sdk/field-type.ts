/** A form field's type in the words a form shows it with, and its allowed values for an enum. */
export interface FieldType {
  /** `string`, `integer`, `number`, `boolean`, `enum`, `object`, `array<string>`, `array<{sku, quantity}>`… */
  type: string;
  /** An enum's values, as they are sent. */
  values?: string[];
}

type JsonSchema = Record<string, unknown>;

/**
 * The one reading of a JSON Schema property as a form's type, for every form: a field typed
 * `string` while its schema wants a list had a model send `"ord_1_item_1"` and be refused
 * "expected array" (issue 23). A union lists its branches (`string|array<string>`); a nullable
 * type is its other type.
 */
export function fieldType(prop: JsonSchema | undefined): FieldType {
  if (!prop) return { type: "string" };
  if (Array.isArray(prop.enum)) return { type: "enum", values: prop.enum.map((v) => String(v)) };
  if (prop.const !== undefined) return { type: "enum", values: [String(prop.const)] };
  const branches = (Array.isArray(prop.anyOf) ? prop.anyOf : Array.isArray(prop.oneOf) ? prop.oneOf : null) as
    | JsonSchema[]
    | null;
  if (branches) {
    const kept = branches.filter((b) => b.type !== "null");
    const typed = kept.map((b) => fieldType(b));
    // Enum branches (a value or another value) read as one enum.
    if (typed.length && typed.every((t) => t.type === "enum"))
      return { type: "enum", values: [...new Set(typed.flatMap((t) => t.values ?? []))] };
    return { type: [...new Set(typed.map((t) => t.type))].join("|") || "any" };
  }
  const type = Array.isArray(prop.type) ? prop.type.find((t) => t !== "null") : prop.type;
  if (type === "array") {
    const items = prop.items as JsonSchema | undefined;
    if (items?.type === "object" && items.properties && typeof items.properties === "object")
      return { type: `array<{${Object.keys(items.properties).join(", ")}}>` };
    return { type: `array<${items ? fieldType(items).type : "any"}>` };
  }
  if (typeof type === "string") return { type };
  if (prop.properties) return { type: "object" };
  return { type: "any" };
}
