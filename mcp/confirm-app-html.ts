/** The MCP Apps UI resource that shows a confirmation node inside the person's host. */
export const CONFIRM_APP_URI = "ui://signpost/confirm";
/** The app-only tool the screen calls; never listed for the model. */
export const DECIDE_APPROVAL_TOOL = "decide_approval";
/** Result `_meta` key holding the single-use approval token (the model never reads `_meta`). */
export const APPROVAL_META_KEY = "signpost/approval";

/**
 * Self-contained HTML (inline CSS and script, no external origin): the host renders it in
 * a sandboxed iframe and talks to it over postMessage JSON-RPC (MCP Apps). The screen reads
 * the tool result the host forwards (`ui/notifications/tool-result`): the summary from
 * `structuredContent`, the approval token from `_meta`. Approve/Reject call the app-only tool
 * with that token; without it the buttons stay disabled.
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
  button.reject { color: var(--bad); border-color: var(--bad); }
  button:disabled { opacity: .5; cursor: not-allowed; }
  #status { margin-top: 10px; font-weight: 600; }
  a { color: inherit; }
  /* The console's ConfirmationSummary markup (its Tailwind classes do not exist in here). */
  [data-testid="confirmation-summary"] { border: 1px solid var(--line); border-radius: 8px; padding: 14px; margin-top: 10px; }
  [data-testid="confirmation-summary"] h2 { font-size: 15px; margin: 0; display: inline; }
  [data-field="version"] { color: var(--muted); font-size: 12px; margin-left: 8px; }
  [data-field="amount"] { font-size: 26px; font-weight: 600; margin: 8px 0; }
  [data-field="details"] { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 10px 0 0; }
  [data-field="details"] dt { color: var(--muted); }
  [data-field="details"] dd { margin: 0; }
  [data-field="details"] .contents { display: contents; }
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
    <button class="approve" id="approve" disabled>Approve</button>
    <button class="reject" id="reject" disabled>Reject</button>
    <a id="console" href="#" hidden>Open in Signpost console</a>
  </div>
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
  function money(cents, currency) {
    if (typeof cents !== "number") return text(cents);
    return (cents / 100).toFixed(2) + " " + (currency || "USD");
  }
  function row(table, label, value) {
    var tr = document.createElement("tr"), th = document.createElement("th"), td = document.createElement("td");
    th.textContent = label; td.textContent = value; tr.appendChild(th); tr.appendChild(td); table.appendChild(tr);
  }
  function render(result) {
    var sc = (result && result.structuredContent) || {};
    var meta = (result && result._meta && result._meta[${JSON.stringify(APPROVAL_META_KEY)}]) || null;
    var summary = sc.summary || {};
    $("meta").textContent = "Action " + text(sc.action_id) + " · version " + text(sc.version) + (meta && meta.expires_at ? " · token expires " + meta.expires_at : "");
    if (meta && typeof meta.summary_html === "string") {
      // Server-rendered by the console's own ConfirmationSummary component: one screen, two places.
      $("title").textContent = "Confirm what the agent prepared";
      $("summary").innerHTML = meta.summary_html;
    } else renderTable(sc, summary);
    state = meta && meta.token ? { token: meta.token, action_id: sc.action_id, version: sc.version } : null;
    $("approve").disabled = !state;
    $("reject").disabled = !state;
    if (meta && meta.console_url) { $("console").href = meta.console_url; $("console").hidden = false; }
    if (!state) $("status").textContent = "This screen cannot decide: no approval token. Use the console link.";
  }
  // Fallback for a result without the rendered summary (e.g. forwarded by a host that strips it).
  function renderTable(sc, summary) {
    $("title").textContent = sc.title || ("Confirm " + (sc.capability || "action"));
    var table = document.createElement("table");
    Object.keys(summary).forEach(function (key) {
      var value = summary[key];
      if (Array.isArray(value)) {
        value.forEach(function (item, i) {
          var label = key + " " + (i + 1);
          if (item && typeof item === "object") {
            var name = item.name || item.label || item.product_id || item.id || "";
            var qty = item.quantity !== undefined ? " × " + item.quantity : "";
            var price = item.unit_price !== undefined ? " @ " + money(item.unit_price, summary.currency) : "";
            row(table, label, name + qty + price);
          } else row(table, label, text(item));
        });
      } else if (/amount|total|subtotal|price|discount|shipping_price/.test(key) && typeof value === "number") {
        row(table, key.replace(/_/g, " "), money(value, summary.currency));
      } else row(table, key.replace(/_/g, " "), text(value));
    });
    $("summary").innerHTML = "";
    $("summary").appendChild(table);
  }
  function decide(decision) {
    if (!state) return;
    $("approve").disabled = true; $("reject").disabled = true;
    $("status").textContent = decision === "approve" ? "Approving…" : "Rejecting…";
    request("tools/call", { name: ${JSON.stringify(DECIDE_APPROVAL_TOOL)}, arguments: {
      action_id: state.action_id, version: state.version, decision: decision, approval_token: state.token } })
      .then(function (res) {
        var sc = (res && res.structuredContent) || {};
        $("status").textContent = (res && res.content && res.content[0] && res.content[0].text) || sc.message || "Done.";
        state = null;
      }, function (err) { $("status").textContent = "Failed: " + (err && err.message ? err.message : String(err)); });
  }
  $("approve").addEventListener("click", function () { decide("approve"); });
  $("reject").addEventListener("click", function () { decide("reject"); });
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
