import { parseAuditQuery, seqSchema } from "@/app/_lib/audit-query";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { openAuditWakeups } from "@/server/gateway/audit-wakeups";
import { latestAuditSeq, listAuditEvents } from "@/server/gateway/console/list-audit-events";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;
const LOOKBACK_MS = 3_000;

/**
 * Server-Sent Events of audit rows, in seq order. The database is the source (not an
 * in-process bus), so every instance behind a load balancer streams every instance's events;
 * the table is read only when woken (this process's writes, PostgreSQL NOTIFY from other
 * instances, or the safety poll, 2 s by default), not polled per tab.
 * Resume: the browser's Last-Event-ID (set automatically on reconnect) or `?after=<seq>` from
 * the page's backfill; otherwise it starts at the newest row. Members get only their own rows.
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
  const signal = req.signal;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      // Reconnect quickly; the cursor makes reconnects gap-free.
      send(`retry: 1000\n: resume from ${cursor}\n\n`);
      let lastBeat = Date.now();
      // On PostgreSQL a row with a lower seq can commit after a higher one. Re-reading a short
      // window behind the cursor (and skipping what was sent) keeps such late rows from being lost.
      const sent = new Set<number>();
      const history: { at: number; cursor: number }[] = [];
      let catchingUp = false;
      const wakeups = openAuditWakeups({ tenantId: ctx.tenantId });
      try {
        while (!signal.aborted) {
          const now = Date.now();
          history.push({ at: now, cursor });
          while (history.length > 1 && now - (history[0]?.at ?? now) > LOOKBACK_MS) history.shift();
          const lowWater = history[0]?.cursor ?? cursor;
          for (const seq of sent) if (seq <= lowWater) sent.delete(seq);
          const events = await listAuditEvents(db, ctx, {
            filter: q.filter,
            afterSeq: catchingUp ? cursor : lowWater,
            limit: 500,
          });
          for (const event of events) {
            if (sent.has(event.seq)) continue;
            send(`id: ${event.seq}\nevent: audit\ndata: ${JSON.stringify(event)}\n\n`);
            sent.add(event.seq);
            if (event.seq > cursor) cursor = event.seq;
          }
          // A full page means more is waiting: read on from the cursor without sleeping.
          catchingUp = events.length === 500;
          if (catchingUp) continue;
          if (Date.now() - lastBeat > HEARTBEAT_MS) {
            send(": keep-alive\n\n");
            lastBeat = Date.now();
          }
          await wakeups.next(signal);
        }
      } catch (error) {
        if (!signal.aborted)
          console.error("audit stream failed", error instanceof Error ? error.message : error);
      } finally {
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
