import type { Schema } from "@/server/connectors/openapi/api-operations";

type Open = Schema & {
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
  const?: unknown;
  exclusiveMinimum?: number | boolean;
  multipleOf?: number;
};

const FORMATS: Record<string, string> = {
  "date-time": "2024-05-06T07:08:09Z",
  date: "2024-05-06",
  time: "07:08:09",
  email: "person@example.com",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  uri: "https://example.com/a",
  url: "https://example.com/a",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  byte: "aGVsbG8=",
  password: "s3cret-Value",
};

function typeOf(s: Open): string | undefined {
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  if (t) return t;
  if (s.properties) return "object";
  if (s.items) return "array";
  return undefined;
}

/**
 * A value a person would plausibly type for a schema, generated from the schema alone: its
 * example or default when they fit, its first enum value, a value of its format, within its
 * bounds; objects with their required properties, lists with their minimum of items. Nothing
 * about Signpost is looked at: this is what the document asks for.
 */
export function plausibleValue(schema: Schema | undefined, depth = 0): unknown {
  const s = (schema ?? {}) as Open;
  if (depth > 8) return typeOf(s) === "object" ? {} : typeOf(s) === "array" ? [] : "x";
  if (s.const !== undefined) return s.const;
  if (s.allOf?.length) {
    const merged: Open = {
      ...s,
      allOf: undefined,
      properties: { ...(s.properties ?? {}) },
      required: [...(s.required ?? [])],
    };
    for (const part of s.allOf) {
      const p = (part ?? {}) as Open;
      Object.assign(merged.properties as object, p.properties ?? {});
      merged.required?.push(...(p.required ?? []));
      merged.type ??= p.type;
      merged.items ??= p.items;
      merged.enum ??= p.enum;
      merged.format ??= p.format;
    }
    return plausibleValue(merged, depth + 1);
  }
  const first = s.oneOf?.[0] ?? s.anyOf?.[0];
  if (first && !s.type && !s.properties) return plausibleValue(first, depth + 1);
  if (s.enum?.length) return s.enum.find((e) => e !== null) ?? s.enum[0];
  const t = typeOf(s);
  const given = [s.example, s.default, ...(Array.isArray(s.examples) ? s.examples : [])].find(
    (v) => v !== undefined && v !== null && fits(t, v),
  );
  if (given !== undefined) return structuredClone(given);
  switch (t) {
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : undefined;
      const max = typeof s.maximum === "number" ? s.maximum : undefined;
      let n =
        min !== undefined
          ? s.exclusiveMinimum === true
            ? min + 1
            : min
          : max !== undefined
            ? Math.min(1, max)
            : 1;
      if (typeof s.exclusiveMinimum === "number") n = s.exclusiveMinimum + 1;
      if (t === "integer") n = Math.ceil(n);
      if (s.multipleOf && n % s.multipleOf !== 0) n = Math.ceil(n / s.multipleOf) * s.multipleOf;
      return n;
    }
    case "boolean":
      return true;
    case "array": {
      const count = Math.max(1, s.minItems ?? 1);
      return Array.from({ length: Math.min(count, 3) }, () => plausibleValue(s.items, depth + 1));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) {
        const prop =
          s.properties?.[name] ?? (typeof s.additionalProperties === "object" ? s.additionalProperties : {});
        if ((prop as Open).readOnly) continue;
        out[name] = plausibleValue(prop, depth + 1);
      }
      return out;
    }
    default: {
      const format = s.format ? FORMATS[s.format] : undefined;
      let text = format ?? "sample";
      if (s.minLength && text.length < s.minLength) text = text.padEnd(s.minLength, "x");
      if (s.maxLength !== undefined && text.length > s.maxLength)
        text = text.slice(0, Math.max(1, s.maxLength));
      return text;
    }
  }
}

function fits(t: string | undefined, v: unknown): boolean {
  switch (t) {
    case "integer":
      return Number.isInteger(v);
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return !!v && typeof v === "object" && !Array.isArray(v);
    case "string":
      return typeof v === "string";
    default:
      return true;
  }
}
