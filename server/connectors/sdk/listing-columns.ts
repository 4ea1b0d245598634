import { code, escapeText, shownPrefix } from "./markdown";
import { secretNameKind } from "./secret-names";

type Row = Record<string, unknown>;

/**
 * Columns one `?columns=` may add: a bound on the table's width. Set BR: at six, a model asking
 * seven for one question (what shipping cost on each order, and what came back) was refused and
 * spent a call again; ten is every money and time column a record usually has.
 */
const MAX_ASKED = 10;

const isPlainObject = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v);

/** A value that says something: not null, not empty, not an empty list. */
const holds = (v: unknown) => v !== null && v !== undefined && v !== "" && !(Array.isArray(v) && !v.length);

/**
 * The fields a listing's rows hold, by the names `?columns=` takes: each top-level field with a
 * value in some row, in the rows' own order; an object's scalar parts also one level down as
 * `payment.method`. A credential's name is never offered (its value would be redacted anyway).
 * Issue 23: curated columns hid payment, discount and coupon, and a model opened records one by
 * one for what the listing's own rows held.
 */
export function rowFields(rows: readonly object[]): { top: string[]; all: Set<string> } {
  const top: string[] = [];
  const all = new Set<string>();
  for (const row of rows as readonly Row[])
    for (const [key, value] of Object.entries(row)) {
      if (!holds(value) || secretNameKind(key) === "strong") continue;
      if (!all.has(key)) top.push(key);
      all.add(key);
      if (isPlainObject(value))
        for (const [inner, v] of Object.entries(value))
          if (holds(v) && (v === null || typeof v !== "object") && secretNameKind(inner) !== "strong")
            all.add(`${key}.${inner}`);
    }
  return { top, all };
}

/** A row's value under a field name as `rowFields` gives it (`payment.method` one level down). */
export function fieldValue(row: object, field: string): unknown {
  const r = row as Row;
  if (Object.hasOwn(r, field)) return r[field];
  const dot = field.indexOf(".");
  if (dot < 0) return undefined;
  const outer = r[field.slice(0, dot)];
  return isPlainObject(outer) ? outer[field.slice(dot + 1)] : undefined;
}

/**
 * An object as one cell, its scalar parts as `key value` pairs ("method card · status succeeded ·
 * amount $48.00"), each drawn by the listing's own cell renderer; other values as the renderer draws them.
 */
export function objectCell(field: string, value: unknown, cell: (key: string, v: unknown) => string): string {
  if (!isPlainObject(value)) return cell(field, value);
  const parts = Object.entries(value)
    .filter(([k, v]) => holds(v) && (v === null || typeof v !== "object") && secretNameKind(k) !== "strong")
    .map(([k, v]) => `${escapeText(k.replace(/_/g, " "))} ${cell(k, v)}`);
  return parts.join(" · ") || "—";
}

/**
 * The columns `?columns=` asks for, checked against the fields the rows hold: names only, each
 * compared as a whole string with `fields` (never a pattern, never sent below), at most ten. An
 * unknown name is a problem naming the fields there are, the name shown inert.
 */
export function askedColumns(
  value: string | undefined,
  fields: ReadonlySet<string>,
  top: readonly string[],
): { columns: string[] } | { problem: string } {
  const names = [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length > MAX_ASKED) return { problem: `\`columns\` takes at most ${MAX_ASKED} names.` };
  const unknown = names.find((n) => !fields.has(n));
  if (unknown !== undefined)
    return {
      problem: `${escapeText(JSON.stringify(shownPrefix(unknown, 40, "")))} is not a field of these rows; they have ${top.map(code).join(", ")}.`,
    };
  return { columns: names };
}

/**
 * The one line under a listing naming the fields its rows hold beyond the table, and how to show
 * them in the same call; "" when the table shows them all.
 */
export function moreColumnsLine(hidden: readonly string[]): string {
  if (!hidden.length) return "";
  return `More columns (${code(`?columns=${hidden.slice(0, 2).join(",")}`)}): ${hidden.map((h) => escapeText(h)).join(", ")}.`;
}
