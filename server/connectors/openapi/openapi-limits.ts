/** The bounds of an import: what a document, its operations and the pages made from it may hold. */
export const OPENAPI_LIMITS = {
  /** A document larger than this is refused before it is parsed (GitHub's whole API, 13 MB, fits). */
  maxDocumentBytes: 16 * 1024 * 1024,
  /** Operations one imported connector may have. */
  maxOperations: 5_000,
  /**
   * Values a document may hold once its $refs are resolved (GitHub's 13 MB API: about 2 million,
   * Stripe's 0.9 million; 2.5 KB of schemas that refer twice to the level below, 19 levels deep:
   * 7.9 million): past it the document is refused before any validator walks it.
   */
  maxExpandedValues: 5_000_000,
  /** How long reading, converting and validating one document may take, off the request thread. */
  importTimeMs: 60_000,
  /** The heap the thread that reads one document may use. */
  importHeapMb: 1_024,
  /** Rows a listing page shows; the rest is behind the next-page link. */
  maxRows: 20,
  /** Columns a listing table shows. */
  maxColumns: 6,
  /** Characters of a response body a page shows at most (after rendering). */
  maxPageChars: 6_000,
  /** Bytes of an upstream response read at most; a larger one is cut and said to be. */
  maxResponseBytes: 2 * 1024 * 1024,
  /** Per-request deadline for upstream reads and writes. */
  timeoutMs: 10_000,
  /** Fields one form shows. */
  maxFields: 40,
} as const;
