import { encode } from "gpt-tokenizer/encoding/o200k_base";

/**
 * o200k tokens of a value as JSON. A schema used twice is written twice (as a wrapper's tool
 * list repeats it); only a schema inside itself (circular) is cut, as "[circular]".
 */
export function jsonTokens(value: unknown): number {
  const ancestors = new Set<object>();
  const json = (v: unknown): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
    if (ancestors.has(v)) return '"[circular]"';
    ancestors.add(v);
    const out = Array.isArray(v)
      ? `[${v.map(json).join(",")}]`
      : `{${Object.entries(v)
          .filter(([, x]) => x !== undefined)
          .map(([k, x]) => `${JSON.stringify(k)}:${json(x)}`)
          .join(",")}}`;
    ancestors.delete(v);
    return out;
  };
  return encode(json(value)).length;
}
