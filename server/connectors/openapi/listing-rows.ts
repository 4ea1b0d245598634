import { stampedEvent } from "../sdk/record-events";
import type { Schema } from "./api-operations";

type Row = Record<string, unknown>;

/** Where a listing's records are in its answer, as the response schema says, and what one holds. */
export interface RowsShape {
  /** Keys from the body to the array (`["_embedded", "conversations"]`; [] for a body that is the array). */
  at: string[];
  /** The item schema's scalar properties, in the document's order: the columns worth showing. */
  columns: string[];
  /**
   * Those that time an event and may be empty (`shipped_at`, null until it ships): what the record
   * went through (record-events.ts), offered as `"event time"` filters.
   */
  stamps?: string[];
}

type Open = Schema & { oneOf?: Schema[]; anyOf?: Schema[] };

function flat(schema: Schema | undefined, depth = 0): Open {
  const s = (schema ?? {}) as Open;
  const parts = [
    ...(s.allOf ?? []),
    ...(s.allOf?.length ? [] : [...(s.oneOf ?? []), ...(s.anyOf ?? [])].slice(0, 1)),
  ];
  if (!parts.length || depth > 4) return s;
  const out: Open = { ...s, properties: { ...(s.properties ?? {}) } };
  for (const part of parts) {
    const m = flat(part, depth + 1);
    Object.assign(out.properties as Record<string, Schema>, m.properties ?? {});
    out.type ??= m.type;
    out.items ??= m.items;
  }
  return out;
}

const isArray = (s: Open) =>
  s.type === "array" || (Array.isArray(s.type) && s.type.includes("array")) || !!s.items;
const isObject = (s: Open) =>
  s.type === "object" || (Array.isArray(s.type) && s.type.includes("object")) || !!s.properties;

function scalarColumns(item: Open): string[] {
  return Object.entries(item.properties ?? {})
    .filter(([, p]) => {
      const f = flat(p);
      return !isArray(f) && !isObject(f);
    })
    .map(([k]) => k)
    .slice(0, 40);
}

/** A property the document lets be null or left out: an event that may not have happened. */
function mayBeEmpty(item: Open, key: string): boolean {
  const p = (item.properties?.[key] ?? {}) as Open;
  const nullType = (s: Open) => s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"));
  return (
    !(item.required ?? []).includes(key) ||
    p.nullable === true ||
    nullType(p) ||
    [...(p.anyOf ?? []), ...(p.oneOf ?? [])].some((s) => nullType(s as Open))
  );
}

/**
 * Follows the response schema to its array of records, wherever it is (the body itself, `data`,
 * `items`, HAL's `_embedded.<name>`, a nested envelope), breadth first and at most four objects
 * deep: the shallowest array of objects wins. None when the schema names none (the answer's
 * own shape is then read, as before).
 */
export function rowsShape(response: Schema | undefined): RowsShape | undefined {
  if (!response) return undefined;
  const queue: Array<{ schema: Open; at: string[] }> = [{ schema: flat(response), at: [] }];
  const seen = new Set<unknown>();
  while (queue.length) {
    const { schema, at } = queue.shift() as { schema: Open; at: string[] };
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (isArray(schema)) {
      const item = flat(schema.items);
      if (isObject(item) || !item.type) {
        const columns = scalarColumns(item);
        // From every property: a nullable one (`anyOf` with null) is no column, yet times an event.
        const stamps = Object.keys(item.properties ?? {}).filter(
          (k) => stampedEvent(k) && mayBeEmpty(item, k),
        );
        return { at, columns, ...(stamps.length ? { stamps } : {}) };
      }
      continue;
    }
    if (!isObject(schema) || at.length >= 4) continue;
    for (const [key, child] of Object.entries(schema.properties ?? {}))
      queue.push({ schema: flat(child), at: [...at, key] });
  }
  return undefined;
}

/** The records at `at` in an answer, or null when the answer does not have an array there. */
export function rowsAt(body: unknown, at: string[]): Row[] | null {
  let value = body;
  for (const key of at)
    value = value && typeof value === "object" && !Array.isArray(value) ? (value as Row)[key] : undefined;
  return Array.isArray(value)
    ? value.filter((v): v is Row => !!v && typeof v === "object" && !Array.isArray(v))
    : null;
}

const ID_KEYS = ["id", "uuid", "gid", "key", "slug", "name", "code"];

function scalar(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

/** A row's value under `key`, its own spelling first, else in any case (`Id`, `ID`). */
function valueAt(row: Row, key: string): string | number | undefined {
  const exact = scalar(row[key]);
  if (exact !== undefined) return exact;
  const lower = key.toLowerCase();
  for (const [k, v] of Object.entries(row))
    if (k.toLowerCase() === lower && scalar(v) !== undefined) return scalar(v);
  return undefined;
}

/** A name's words in lower case: `applicationObjectId`, `TransactionID`, `task_gid`. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The value of a row that fills its detail page's path parameter: the parameter's own name
 * (`gid`), its last words (`applicationObjectId` → `objectId`, `task_gid` → `gid`, `petId` →
 * `id`), then the usual id keys, then the id field its description names (`TransactionID`), at the
 * row's top or one object down (Kubernetes' `metadata.name`).
 */
export function rowKey(row: Row, param: string, about?: string): string | number | undefined {
  const parts = words(param);
  // Longest suffix first: `applicationObjectId` → `objectId`, `object_id`, then `id`.
  const suffixes = parts.slice(1).flatMap((_, i) => {
    const tail = parts.slice(i + 1);
    return [tail.map((w, j) => (j ? w[0]?.toUpperCase() + w.slice(1) : w)).join(""), tail.join("_")];
  });
  const keys = [...new Set([param, ...suffixes, ...ID_KEYS])];
  for (const key of keys) {
    const value = valueAt(row, key);
    if (value !== undefined) return value;
  }
  // The id field the parameter's description names ("Bill Transaction ID number" → `TransactionID`).
  if (about) {
    const said = new Set(words(about));
    const named = Object.keys(row).filter((k) => {
      const w = words(k);
      return (
        w.length > 1 &&
        w[w.length - 1] === "id" &&
        w.every((x) => said.has(x)) &&
        scalar(row[k]) !== undefined
      );
    });
    if (named.length === 1) return scalar(row[named[0] as string]);
  }
  for (const nested of Object.values(row))
    if (nested && typeof nested === "object" && !Array.isArray(nested))
      for (const key of keys) {
        const value = valueAt(nested as Row, key);
        if (value !== undefined) return value;
      }
  return undefined;
}
