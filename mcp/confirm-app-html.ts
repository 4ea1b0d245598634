/** The MCP Apps UI resource that shows a confirmation node inside the person's host. */
export const CONFIRM_APP_URI = "ui://signpost/confirm";
/** The app-only, read-only tool the screen polls for the approval's status. */
export const APPROVAL_STATUS_TOOL = "approval_status";
/**
 * Result `_meta` key with what the screen shows: the rendered summary, the console URL and the
 * expiry. Never anything that can approve: any client, and so the model, may read `_meta`.
 */
export const APPROVAL_META_KEY = "signpost/approval";

/**
 * Self-contained HTML (inline CSS and script, no external origin): the host renders it in
 * a sandboxed iframe and talks to it over postMessage JSON-RPC (MCP Apps). The screen reads
 * the tool result the host forwards (`ui/notifications/tool-result`) and shows the summary;
 * "Approve in Signpost" asks the host to open the console's confirm page (`ui/open-link`),
 * where the person decides with their own session. It then polls the read-only status tool
 * and shows who decided.
 */
export function renderConfirmAppHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Signpost — confirm</title>
<style>
  :root { color-scheme: light dark; --fg: #111827; --muted: #6b7280; --bg: #ffffff; --line: #e5e7eb; --ok: #047857; --bad: #b91c1c; }
  @media (prefers-color-scheme: dark) { :root { --fg: #f3f4f6; --muted: #9ca3af; --bg: #111827; --line: #374151; } }
  * { box-sizing: border-box; }
  body { margin: 0; padding: 16px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
  h1 { font-size: 16px; margin: 0 0 4px; }
  .muted { color: var(--muted); font-size: 12px; }
  table { width: 100%; border-collapse: collapse; margin: 12px 0; }
  th, td { text-align: left; padding: 6px 4px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-weight: 600; width: 38%; }
  .actions { display: flex; gap: 8px; margin-top: 12px; align-items: center; flex-wrap: wrap; }
  button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--line); background: transparent; color: var(--fg); cursor: pointer; }
  button.approve { background: var(--ok); color: #fff; border-color: var(--ok); }
  button:disabled { opacity: .5; cursor: not-allowed; }
  #status { margin-top: 10px; font-weight: 600; }
  a { color: inherit; }
  /* The console's ConfirmationSummary markup (its Tailwind classes do not exist in here). */
  [data-testid="confirmation-summary"] { border: 1px solid var(--line); border-radius: 8px; padding: 14px; margin-top: 10px; }
  [data-field="capability"], [data-field="status"] { color: var(--muted); font-size: 12px; }
  [data-testid="confirmation-summary"] > p:first-child { display: flex; justify-content: space-between; gap: 8px; margin: 0; }
  [data-testid="confirmation-summary"] h2 { font-size: 18px; margin: 4px 0 0; }
  [data-field="amount"] { margin: 8px 0; }
  [data-field="amount-label"] { display: block; color: var(--muted); font-size: 12px; }
  [data-field="amount"] > span:nth-child(2) { font-size: 26px; font-weight: 600; }
  [data-field="items"] th, [data-field="items"] td { width: auto; padding: 4px; }
  [data-field="items"] td:not(:first-child), [data-field="items"] thead th:not(:first-child), [data-field="items"] tfoot th { text-align: right; }
  [data-field="details"], [data-field="request"] { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 10px 0 0; overflow-wrap: anywhere; }
  [data-field="request"] { font-size: 12px; border-top: 1px solid var(--line); padding-top: 8px; }
  [data-field="details"] dt, [data-field="request"] dt { color: var(--muted); }
  [data-field="details"] dd, [data-field="request"] dd { margin: 0; }
  [data-field="details"] .contents { display: contents; }
  [data-field="changed"] { font-size: 11px; background: #fef3c7; color: #78350f; border-radius: 4px; padding: 0 4px; margin-left: 6px; }
  [data-field="developer"] { margin-top: 8px; color: var(--muted); font-size: 12px; }
  [data-testid="confirmation-summary"] ul { margin: 0; padding-left: 16px; }
  [data-testid="confirmation-summary"] code { font-size: 12px; }
</style>
</head>
<body>
<main>
  <h1 id="title">Waiting for the action…</h1>
  <div class="muted" id="meta"></div>
  <div id="summary"></div>
  <div class="actions">
    <button class="approve" id="open" disabled>Approve in Signpost</button>
    <a id="console" href="#" target="_blank" rel="noopener noreferrer" hidden>Open the confirm page</a>
  </div>
  <p class="muted">You approve or reject on Signpost's own page, signed in as yourself; the agent cannot do it for you.</p>
  <div id="status" role="status"></div>
</main>
<script>
(function () {
  "use strict";
  var nextId = 1, pending = {}, state = null;
  function $(id) { return document.getElementById(id); }
  function send(msg) { window.parent.postMessage(msg, "*"); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: "2.0", id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function text(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }
  function render(result) {
    var sc = (result && result.structuredContent) || {};
    var meta = (result && result._meta && result._meta[${JSON.stringify(APPROVAL_META_KEY)}]) || null;
    $("meta").textContent = "Action " + text(sc.action_id) + " · version " + text(sc.version) + (meta && meta.expires_at ? " · valid until " + meta.expires_at : "");
    if (meta && typeof meta.summary_html === "string") {
      // Server-rendered by the console's own ConfirmationSummary component: one screen, two places.
      $("title").textContent = "Confirm what the agent prepared";
      $("summary").innerHTML = meta.summary_html;
    } else showNoSummary(sc);
    state = sc.action_id ? { action_id: sc.action_id, version: sc.version, url: meta && meta.console_url } : null;
    if (state && state.url) {
      $("console").href = state.url; $("console").hidden = false; $("open").disabled = false;
    }
    if (state) poll();
  }
  // A result without the server-rendered summary (a host that strips _meta): nothing is drawn
  // from the raw summary here, where it would be a second renderer guessing at its keys; the
  // person decides on Signpost's own page, which shows it in full.
  function showNoSummary(sc) {
    $("title").textContent = "Confirm " + text(sc.capability || "action");
    $("summary").textContent = "Open Signpost to see exactly what you are asked to approve.";
  }
  function openConsole() {
    if (!state || !state.url) return;
    // The host opens it in the person's browser, where their console session decides.
    request("ui/open-link", { url: state.url }).then(function () {
      $("status").textContent = "Opened Signpost: approve or reject there. This screen updates when you decide.";
    }, function () { $("console").focus(); $("status").textContent = "Use the link to open Signpost."; });
  }
  var timer = null, polls = 0;
  function poll() {
    if (timer) clearTimeout(timer);
    if (!state || polls > 360) return; // about 30 minutes at 5 s: the approval's default lifetime
    polls++;
    request("tools/call", { name: ${JSON.stringify(APPROVAL_STATUS_TOOL)}, arguments: { action_id: state.action_id } })
      .then(function (res) {
        var sc = (res && res.structuredContent) || {};
        var a = sc.approval;
        if (sc.version !== undefined && state.version !== undefined && sc.version !== state.version) {
          $("status").textContent = "The agent changed this action (now version " + sc.version + "): the screen above is out of date.";
        } else if (a && a.status !== "pending") {
          $("status").textContent = sc.message || a.status;
          $("open").disabled = true;
          if (a.status === "approved" || a.status === "rejected" || a.status === "expired") return;
        } else if (a) $("status").textContent = "Waiting for your decision in Signpost (valid until " + a.expires_at + ").";
        timer = setTimeout(poll, 5000);
      }, function () { timer = setTimeout(poll, 15000); });
  }
  $("open").addEventListener("click", openConsole);
  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var msg = event.data;
    if (!msg || msg.jsonrpc !== "2.0") return;
    if (msg.id !== undefined && pending[msg.id] && !msg.method) {
      var p = pending[msg.id]; delete pending[msg.id];
      if (msg.error) p.reject(msg.error); else p.resolve(msg.result);
      return;
    }
    if (msg.method === "ui/notifications/tool-result") render(msg.params);
  });
  request("ui/initialize", { appInfo: { name: "signpost-confirm", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
    .then(function () { send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }); }, function () {});
})();
</script>
</body>
</html>`;
}
