import { z } from "zod";
import { type AuditFilter, auditFilterSchema } from "@/server/gateway/console/list-audit-events";

/** A sequence number as the `AuditEvent.seq` column can hold it (a 32-bit INT on PostgreSQL). */
export const seqSchema = z.coerce.number().int().min(0).max(2_147_483_647);

/** Reads the monitor's query string: filters plus `after` / `before` / `limit`, all validated. */
export function parseAuditQuery(
  params: URLSearchParams,
):
  | { ok: true; filter: AuditFilter; after?: number; before?: number; limit?: number }
  | { ok: false; message: string } {
  const raw: Record<string, string> = {};
  for (const key of ["agentId", "face", "operation", "outcome", "target", "q", "from", "to"]) {
    const v = params.get(key);
    if (v) raw[key] = v;
  }
  const filter = auditFilterSchema.safeParse(raw);
  if (!filter.success) return { ok: false, message: "Invalid filter." };
  const out: { ok: true; filter: AuditFilter; after?: number; before?: number; limit?: number } = {
    ok: true,
    filter: filter.data,
  };
  for (const key of ["after", "before", "limit"] as const) {
    const v = params.get(key);
    if (v === null || v === "") continue;
    const n = seqSchema.safeParse(v);
    if (!n.success) return { ok: false, message: `Invalid ${key}.` };
    out[key] = n.data;
  }
  return out;
}
