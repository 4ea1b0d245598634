import { z } from "zod";

/** `?page=&per_page=` of every list endpoint. */
export const pageQueryShape = {
  page: z.coerce.number().int().min(1).default(1).describe("1-based page number"),
  per_page: z.coerce.number().int().min(1).max(100).default(20).describe("items per page (1..100)"),
};

/** The list envelope: `{data, page, per_page, total, next_page}`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    next_page: z.number().int().nullable(),
  });
}

export interface Page<T> {
  data: T[];
  page: number;
  per_page: number;
  total: number;
  next_page: number | null;
}

/** Slices an already filtered list; the demo's data is small enough to page in memory. */
export function paginate<T>(items: readonly T[], query: { page: number; per_page: number }): Page<T> {
  const start = (query.page - 1) * query.per_page;
  const data = items.slice(start, start + query.per_page);
  return {
    data,
    page: query.page,
    per_page: query.per_page,
    total: items.length,
    next_page: start + query.per_page < items.length ? query.page + 1 : null,
  };
}
