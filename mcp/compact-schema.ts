import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";

const SAFE_INT = 9007199254740991;

/** Drops what costs tokens and says nothing: `$schema`, JS safe-integer bounds, bare `propertyNames`. */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === "$schema") continue;
    if ((key === "maximum" && value === SAFE_INT) || (key === "minimum" && value === -SAFE_INT)) continue;
    if (key === "propertyNames" && JSON.stringify(value) === '{"type":"string"}') continue;
    if (
      key === "additionalProperties" &&
      value &&
      typeof value === "object" &&
      Object.keys(value).length === 0
    ) {
      continue; // `{}` allows anything, as the absence does
    }
    out[key] = compact(value);
  }
  return out;
}

/**
 * The same zod schema, listed compactly: validation stays zod's own (so refusals name the field,
 * e.g. `Unrecognized key: "tenant_id"`), only the JSON Schema the host sees is trimmed. A
 * schema's meaning is unchanged: every constraint that restricts a value is kept.
 */
export function compactSchema<S extends z.ZodType>(
  schema: S,
): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const input = compact(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" })) as Record<
    string,
    unknown
  >;
  const output = compact(z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" })) as Record<
    string,
    unknown
  >;
  const standard = schema["~standard"];
  return {
    "~standard": {
      version: 1,
      vendor: "signpost",
      validate: (value: unknown) => standard.validate(value),
      jsonSchema: { input: () => input, output: () => output },
    },
  } as unknown as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
}
