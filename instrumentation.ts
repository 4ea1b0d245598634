// Runs once in each Next.js server process, before it serves a request (however it was started:
// `npx signpost serve` / `npm start` through scripts/next-http-server.ts, `next start`, `next dev`).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing is registered and
  // every span is the OpenTelemetry API's no-op.
  const { startTracing } = await import("./server/telemetry/start-tracing");
  startTracing();
  // Route handlers never see the socket; this stamps its address onto each request so the
  // console can tell the real client from what X-Forwarded-For claims (server/gateway/request-peer.ts).
  const { installPeerStamp } = await import("./server/gateway/peer-stamp");
  installPeerStamp();
  // Every request gets an id (X-Request-Id) before a handler runs: log lines and audit rows name it.
  const { installRequestIds } = await import("./server/gateway/request-id");
  installRequestIds();
  // Email people when an approval or a permission request waits for them (SIGNPOST_SMTP_URL).
  const { mailerFromEnv } = await import("./server/gateway/mailer");
  const mailer = mailerFromEnv();
  if (mailer) {
    const [{ installNotifications }, { getDb }, { defaultPublicUrl }] = await Promise.all([
      import("./server/gateway/notify-people"),
      import("./server/db/client"),
      import("./mcp/signpost-mcp"),
    ]);
    installNotifications({ db: getDb(), mailer, publicUrl: defaultPublicUrl() });
  }
}
