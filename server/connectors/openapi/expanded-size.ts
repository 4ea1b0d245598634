const MAX_DEPTH = 1_000;

/** The value a document's internal `$ref` (`#/components/schemas/Pet`) points at, or undefined. */
function pointed(document: unknown, ref: string): unknown {
  let value = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/**
 * How many values the document holds once every internal `$ref` is replaced by what it points at:
 * what a validator or a generator walks. Nineteen levels of a schema that refers twice to the one
 * below are 2 KB of text and 2^19 values expanded, each level doubling it. Counted in one pass with
 * each `$ref`'s size remembered (a circular `$ref` counts once),
 * and stopped as soon as it passes `cap`, so the count itself stays cheap.
 */
export function expandedSize(document: unknown, cap: number): number {
  const sizes = new Map<string, number>();
  const open = new Set<string>();
  const circular = new Set<string>();
  const size = (value: unknown, depth: number): number => {
    if (!value || typeof value !== "object") return 1;
    // Nesting this deep is no API description; counting it as over the cap keeps the stack safe.
    if (depth > MAX_DEPTH) return cap + 1;
    const ref = (value as { $ref?: unknown }).$ref;
    if (!Array.isArray(value) && typeof ref === "string" && ref.startsWith("#/")) {
      // A $ref once found inside its own expansion stays a $ref wherever it is met, as the
      // parser leaves circular ones (Stripe's document: 32 billion values counted otherwise).
      if (circular.has(ref)) return 1;
      const known = sizes.get(ref);
      if (known !== undefined) return known;
      if (open.has(ref)) {
        circular.add(ref);
        return 1;
      }
      open.add(ref);
      const target = pointed(document, ref);
      const n = target === undefined ? 1 : size(target, depth + 1);
      open.delete(ref);
      sizes.set(ref, n);
      return n;
    }
    let n = 1;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      n += size(child, depth + 1);
      if (n > cap) return n;
    }
    return n;
  };
  return size(document, 0);
}
