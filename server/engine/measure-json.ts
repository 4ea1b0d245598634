/** Bounds on a JSON value; a bound left out is not checked. */
export interface JsonLimits {
  /** Deepest nesting of arrays and objects; the value itself is at depth 1. */
  maxDepth?: number;
  /** Longest string value, in characters. */
  maxStringChars?: number;
  /** Longest object key, in characters. */
  maxKeyChars?: number;
  /** Most keys of one object. */
  maxKeys?: number;
  /** Most items of one array. */
  maxItems?: number;
  /** Most values in all (every string, number, array, object… counts one). */
  maxValues?: number;
  /** Largest serialized size, in characters of `JSON.stringify`'s output. */
  maxChars?: number;
}

/** The first bound a value breaks, where (keys and indexes from the top), and why. */
export interface JsonViolation {
  path: Array<string | number>;
  code: "too_deep" | "too_large";
  message: string;
}

export interface JsonMeasure {
  /** Serialized size in characters, counted up to the first violation. */
  chars: number;
  violation: JsonViolation | null;
}

type PathNode = { parent: PathNode; key: string | number } | null;

function pathOf(node: PathNode): Array<string | number> {
  const path: Array<string | number> = [];
  for (let n = node; n; n = n.parent) path.push(n.key);
  return path.reverse();
}

/**
 * Measures a JSON value against `limits` without recursion and stops at the first bound it
 * breaks, so a 20,000-deep array, a 5 MB string or an object with 100,000 keys costs about as
 * much as a small value (the walk never goes past a bound). `JSON.stringify` and recursive
 * walkers overflow the stack on such input; call this before handing a value of unknown shape
 * to them.
 */
export function measureJson(value: unknown, limits: JsonLimits = {}): JsonMeasure {
  const maxDepth = limits.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxString = limits.maxStringChars ?? Number.POSITIVE_INFINITY;
  const maxKey = limits.maxKeyChars ?? Number.POSITIVE_INFINITY;
  const maxKeys = limits.maxKeys ?? Number.POSITIVE_INFINITY;
  const maxItems = limits.maxItems ?? Number.POSITIVE_INFINITY;
  const maxValues = limits.maxValues ?? Number.POSITIVE_INFINITY;
  const maxChars = limits.maxChars ?? Number.POSITIVE_INFINITY;
  const stack: Array<{ value: unknown; depth: number; path: PathNode }> = [{ value, depth: 1, path: null }];
  let chars = 0;
  let values = 0;
  const broken = (path: PathNode, code: JsonViolation["code"], message: string): JsonMeasure => ({
    chars,
    violation: { path: pathOf(path), code, message },
  });

  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { value: v, depth, path } = frame;
    if (++values > maxValues) return broken(path, "too_large", `more than ${maxValues} values in all`);
    if (typeof v === "string") {
      if (v.length > maxString)
        return broken(path, "too_large", `a string of ${v.length} characters, at most ${maxString}`);
      // Escapes only add characters: the cheap lower bound decides when it is already too much.
      chars += chars + v.length + 2 > maxChars ? v.length + 2 : JSON.stringify(v).length;
    } else if (typeof v === "number") {
      chars += Number.isFinite(v) ? String(v).length : 4;
    } else if (typeof v === "boolean") {
      chars += v ? 4 : 5;
    } else if (v === null || typeof v !== "object") {
      chars += 4; // null; undefined and functions stand for null inside arrays
    } else if (typeof (v as { toJSON?: unknown }).toJSON === "function") {
      chars += (JSON.stringify(v) ?? "null").length; // a Date: flat by construction
    } else if (depth > maxDepth) {
      return broken(path, "too_deep", `nested more than ${maxDepth} levels deep`);
    } else if (Array.isArray(v)) {
      if (v.length > maxItems)
        return broken(path, "too_large", `an array of ${v.length} items, at most ${maxItems}`);
      chars += 2 + Math.max(0, v.length - 1);
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], depth: depth + 1, path: { parent: path, key: i } });
    } else {
      const keys = Object.keys(v);
      if (keys.length > maxKeys)
        return broken(path, "too_large", `an object with ${keys.length} keys, at most ${maxKeys}`);
      // JSON.stringify leaves out keys whose value is undefined or a function.
      const kept = keys.filter((k) => {
        const item = (v as Record<string, unknown>)[k];
        return item !== undefined && typeof item !== "function";
      });
      chars += 2 + Math.max(0, kept.length - 1);
      for (let i = kept.length - 1; i >= 0; i--) {
        const key = kept[i] as string;
        const at = { parent: path, key };
        if (key.length > maxKey)
          return broken(at, "too_large", `a key of ${key.length} characters, at most ${maxKey}`);
        chars += JSON.stringify(key).length + 1;
        stack.push({ value: (v as Record<string, unknown>)[key], depth: depth + 1, path: at });
      }
    }
    if (chars > maxChars) return broken(path, "too_large", `over ${maxChars} characters as JSON`);
  }
  return { chars, violation: null };
}

/** A violation's path as a field name: `patch.items.0`, cut to a readable length; the top is `(input)`. */
export function jsonPathField(path: Array<string | number>, maxChars = 200): string {
  const field = path
    .map((k) => (typeof k === "string" && k.length > 64 ? `${k.slice(0, 64)}…` : k))
    .join(".");
  if (!field) return "(input)";
  return field.length > maxChars ? `${field.slice(0, maxChars)}…` : field;
}
