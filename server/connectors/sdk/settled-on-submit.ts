import type { BackendOutcome, Row } from "./browse-backend";
import { escapeText } from "./markdown";

/**
 * What a submit just settled on an action still open: the fields it holds (applied or valued)
 * that are neither missing nor refused. Its answer does not ask for them again, nor re-list the
 * choices they were picked from (set L: an exchange's submit answered 925 tokens, most of them
 * the lists its kind and item were picked from and a form of seven fields, three just sent).
 */
export function settledOnSubmit(outcome: BackendOutcome): Set<string> {
  const base = (f: unknown) => String(f).split(/[[.]/)[0] ?? "";
  const values = (outcome.values as Row | undefined) ?? {};
  const held = [
    ...(Array.isArray(outcome.applied) ? (outcome.applied as unknown[]) : []),
    // Sent for a later step and kept for it (set AI: the form asked for the shipping and payment
    // just sent, and the agent sent them again).
    ...(Array.isArray(outcome.pending) ? (outcome.pending as unknown[]) : []),
    ...Object.keys(values).filter((k) => values[k] !== undefined && values[k] !== null && values[k] !== ""),
  ].map(base);
  const open = new Set(
    [
      ...(Array.isArray(outcome.missing) ? (outcome.missing as unknown[]) : []),
      ...(Array.isArray(outcome.validation_errors)
        ? (outcome.validation_errors as Row[]).map((e) => e.field)
        : []),
    ].map(base),
  );
  return new Set(held.filter((f) => f && !open.has(f)));
}

/**
 * The option lists a submit's answer leaves out: those filling a settled field. Lists that fill
 * no field stay: they may be new at this step (what is to pay once the items are known).
 */
export function listsNotRepeated(outcome: BackendOutcome, settled: ReadonlySet<string>): string[] {
  const { field_of, order_of: _order, ...options } = (outcome.options as Row | undefined) ?? {};
  const fieldOf = (field_of ?? {}) as Record<string, unknown>;
  return Object.keys(options).filter((k) => {
    const field = fieldOf[k];
    return field !== undefined && settled.has(String(field).split(/[[.]/)[0] ?? "");
  });
}

/** The one line that says what was left out, and where it is read whole. */
export function notRepeatedLine(settled: ReadonlySet<string>, lists: readonly string[], uri: string): string {
  const said = [
    settled.size ? `set already (send one again to change it): ${[...settled].join(", ")}` : "",
    lists.length ? `choices shown before, not repeated: ${lists.join(", ")}` : "",
  ].filter(Boolean);
  return said.length ? `${escapeText(said.join("; "))} (\`navigate ${uri}\` shows them all)` : "";
}
