import { parseAuditQuery } from "@/app/_lib/audit-query";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { csvCell } from "@/server/gateway/console/csv-cell";
import { type AuditEventView, listAuditEvents } from "@/server/gateway/console/list-audit-events";

export const dynamic = "force-dynamic";

/** At most this many rows per export: a bounded file, and a bounded read of the audit table. */
const MAX_EXPORT_ROWS = 10_000;
const COLUMNS = [
  "seq",
  "createdAt",
  "face",
  "operation",
  "target",
  "capability",
  "agentId",
  "userId",
  "decision",
  "outcome",
  "message",
  "latencyMs",
  "actionId",
  "actionKey",
  "arguments",
] as const;

/**
 * The monitor's filtered rows as a file: `format=csv` or `format=jsonl`, newest first, the same
 * filters and time range as the monitor, at most 10,000 rows (the last line says when it was cut).
 * Rows come through the same view as the screen, so secrets are redacted the same way.
 */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ req, db, ctx }) => {
  const params = new URL(req.url).searchParams;
  const format = params.get("format") ?? "csv";
  if (format !== "csv" && format !== "jsonl")
    return errorResponse("invalid_request", "format is csv or jsonl.");
  const q = parseAuditQuery(params);
  if (!q.ok) return errorResponse("invalid_request", q.message);
  const rows: AuditEventView[] = [];
  let before: number | undefined = q.before;
  while (rows.length < MAX_EXPORT_ROWS) {
    const page = await listAuditEvents(db, ctx, { filter: q.filter, beforeSeq: before, limit: 1000 });
    rows.push(...page.slice(0, MAX_EXPORT_ROWS - rows.length));
    if (page.length < 1000) break;
    before = page[page.length - 1]?.seq;
  }
  const more =
    rows.length === MAX_EXPORT_ROWS &&
    (await listAuditEvents(db, ctx, { filter: q.filter, beforeSeq: rows[rows.length - 1]?.seq, limit: 1 }))
      .length > 0;
  const stamp = new Date().toISOString().replaceAll(":", "").slice(0, 15);
  const body =
    format === "csv"
      ? [
          COLUMNS.map(csvCell).join(","),
          ...rows.map((r) => COLUMNS.map((c) => csvCell(r[c])).join(",")),
        ].join("\r\n") +
        (more ? `\r\n# cut at ${MAX_EXPORT_ROWS} rows: narrow the range for the rest\r\n` : "\r\n")
      : rows.map((r) => JSON.stringify(r)).join("\n") +
        (rows.length ? "\n" : "") +
        (more ? `${JSON.stringify({ truncated: true, limit: MAX_EXPORT_ROWS })}\n` : "");
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="signpost-audit-${stamp}.${format}"`,
      "cache-control": "no-store",
    },
  });
});
