import { parseAuditQuery, seqSchema } from "@/app/_lib/audit-query";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { openAuditWakeups } from "@/server/gateway/audit-wakeups";
import { latestAuditSeq, listAuditEvents } from "@/server/gateway/console/list-audit-events";
import { liveStreamsEnding } from "@/server/gateway/draining";
import { logger } from "@/server/logger";
import { signpostMetrics } from "@/server/metrics/signpost-metrics";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events of audit rows, in seq order. The database is the source (not an
 * in-process bus), so every instance behind a load balancer streams every instance's events;
 * the table is read only when woken (this process's writes, PostgreSQL NOTIFY from other
 * instances, or the safety poll, 2 s by default), not polled per tab.
 * Resume: the browser's Last-Event-ID (set automatically on reconnect) or `?after=<seq>` from
 * the page's backfill; otherwise it starts at the newest row. Sequence numbers are the tenant's
 * own (1, 2, 3… per tenant), so a cursor only ever means a position in this tenant's rows and
 * says nothing about another tenant. Members get only their own rows.
 * When the instance leaves, the stream ends with a last `closing` event naming its cursor (not an
 * aborted connection): the browser reconnects, through the balancer, to an instance that stays.
 */
export const GET = consoleRoute({}, async ({ req, db, ctx }) => {
  const params = new URL(req.url).searchParams;
  const q = parseAuditQuery(params);
  if (!q.ok) return errorResponse("invalid_request", q.message);
  // What the browser echoes back; anything but a sequence number the table can hold is ignored.
  const header = req.headers.get("last-event-id") ?? "";
  const lastEventId = /^\d+$/.test(header) ? seqSchema.safeParse(header) : null;
  const resumeFrom = lastEventId?.success ? lastEventId.data : q.after;
  let cursor = resumeFrom ?? (await latestAuditSeq(db, ctx));
  const encoder = new TextEncoder();
  // The client going away, or this instance leaving (then the stream says so before it ends).
  const ending = liveStreamsEnding();
  const signal = AbortSignal.any([req.signal, ending]);

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      // Reconnect quickly; the cursor makes reconnects gap-free.
      send(`retry: 1000\n: resume from ${cursor}\n\n`);
      let lastBeat = Date.now();
      const wakeups = openAuditWakeups({ tenantId: ctx.tenantId });
      const subscribers = signpostMetrics().monitorSubscribers;
      subscribers.inc();
      try {
        while (!signal.aborted) {
          // Reading strictly after the cursor loses nothing: a tenant's rows become visible in seq
          // order, since recordAuditEvent numbers each one under its tenant's AuditCounter row,
          // locked until the row commits, so a lower number can never commit after a higher one.
          const events = await listAuditEvents(db, ctx, { filter: q.filter, afterSeq: cursor, limit: 500 });
          for (const event of events) {
            send(`id: ${event.seq}\nevent: audit\ndata: ${JSON.stringify(event)}\n\n`);
            if (event.seq > cursor) cursor = event.seq;
          }
          // A full page means more is waiting: read on from the cursor without sleeping.
          if (events.length === 500) continue;
          if (Date.now() - lastBeat > HEARTBEAT_MS) {
            send(": keep-alive\n\n");
            lastBeat = Date.now();
          }
          await wakeups.next(signal);
        }
        if (ending.aborted && !req.signal.aborted)
          send(`event: closing\ndata: ${JSON.stringify({ reason: "shutdown", last_seq: cursor })}\n\n`);
      } catch (error) {
        if (!signal.aborted)
          logger.error(
            { err: error instanceof Error ? error.message : String(error) },
            "audit stream failed",
          );
      } finally {
        subscribers.dec();
        wakeups.close();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      }
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
