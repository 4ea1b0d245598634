import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { Db } from "../db/client";
import { resolveConsoleSession, SESSION_COOKIE } from "../gateway/console-session";
import { recordAuditEvent } from "../gateway/record-audit-event";
import { connectApp } from "./connected-apps";
import { ALL_SCOPES, FACE_SCOPES, SCOPE_WORDS } from "./oauth-scopes";

export interface ConsentOptions {
  db: Db;
  provider: Provider;
  uid: string;
  resource: string;
  callsPerMinute: number;
}

const MAX_FORM_BYTES = 4 * 1024;
/** Scopes granted when a host asks for none: what `/mcp` serves by default, less scripts. */
const DEFAULT_SCOPES = [FACE_SCOPES.actions, FACE_SCOPES.browse];

/**
 * The sign-in and consent step of the authorization server, on the console's session: a person
 * not signed in goes to the console's sign-in and comes back; a signed-in person sees which app
 * asks (its name and the domain of its metadata document, flagged when nothing confirms the
 * name), as whom it will act, what it may do and its call budget, and allows or denies. Allow
 * connects the app (an agent row for this person and client) and issues the code.
 */
export async function handleConsent(req: IncomingMessage, res: ServerResponse, options: ConsentOptions) {
  const { db, provider } = options;
  const person = await resolveConsoleSession(db, cookieOf(req, SESSION_COOKIE));
  const here = `/oauth/consent/${encodeURIComponent(options.uid)}`;
  if (!person) {
    redirect(res, `/sign-in?next=${encodeURIComponent(here)}`);
    return;
  }
  let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    page(res, 400, "This sign-in request has expired", "<p>Start again from the app that sent you here.</p>");
    return;
  }
  if (details.uid !== options.uid) {
    page(res, 400, "This sign-in request has expired", "<p>Start again from the app that sent you here.</p>");
    return;
  }
  const clientId = String(details.params.client_id ?? "");
  const client = await provider.Client.find(clientId).catch(() => undefined);
  if (!client) {
    page(res, 400, "Unknown app", "<p>The app that sent you here could not be identified.</p>");
    return;
  }
  const requested = String(details.params.scope ?? "")
    .split(" ")
    .filter((s) => ALL_SCOPES.includes(s));
  const scopes = requested.length > 0 ? requested : DEFAULT_SCOPES;
  const appName = String(client.clientName ?? "").trim() || "An unnamed app";
  const domain = domainOf(clientId);
  // The name is the app's own word; its domain is proven by serving the document over https.
  // When the app's home page is on another domain, nothing links the two.
  const verified = !!domain && domainOf(String(client.clientUri ?? "")) === domain;

  if (req.method === "POST") {
    if (!sameOrigin(req)) {
      page(res, 403, "Refused", "<p>This form must be sent from Signpost's own page.</p>");
      return;
    }
    const form = new URLSearchParams(await readBody(req));
    if (form.get("decision") !== "allow") {
      await audit(db, person, "oauth.app_denied", appName, clientId, "rejected");
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The person did not allow this app" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: person.userId, clientId }))
      : new provider.Grant({ accountId: person.userId, clientId });
    grant.addResourceScope(options.resource, scopes.join(" "));
    if (
      String(details.params.scope ?? "")
        .split(" ")
        .includes("openid")
    )
      grant.addOIDCScope("openid");
    const grantId = await grant.save();
    const agent = await connectApp(db, {
      tenantId: person.tenantId,
      userId: person.userId,
      clientId,
      appName,
    });
    await audit(db, person, "oauth.app_connected", appName, clientId, "applied", agent.id);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: person.userId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }

  const scopeItems = scopes.map((s) => `<li>${escapeHtml(SCOPE_WORDS[s] ?? s)}</li>`).join("");
  page(
    res,
    200,
    `Allow ${appName}?`,
    `<p class="app"><strong data-testid="app-name">${escapeHtml(appName)}</strong>
      ${domain ? `from <strong data-testid="app-domain">${escapeHtml(domain)}</strong>` : ""}
      ${verified ? "" : `<span class="flag" data-testid="unverified">unverified: nothing confirms this name belongs to ${escapeHtml(domain || "this app")}</span>`}</p>
    <p>wants to act as <strong data-testid="acting-as">${escapeHtml(person.name)} (${escapeHtml(person.email)})</strong> in <strong>${escapeHtml(person.tenantName)}</strong>. It may:</p>
    <ul>${scopeItems}</ul>
    <p>At most ${options.callsPerMinute > 0 ? `${options.callsPerMinute} calls a minute` : "an unlimited number of calls"}. You can disconnect it at any time on the Agents page.</p>
    <form method="post" action="${escapeHtml(here)}">
      <button name="decision" value="allow" type="submit">Allow</button>
      <button name="decision" value="deny" type="submit" class="secondary">Deny</button>
    </form>`,
  );
}

async function audit(
  db: Db,
  person: { tenantId: string; userId: string },
  operation: string,
  appName: string,
  clientId: string,
  outcome: string,
  agentId?: string,
) {
  await recordAuditEvent(
    db,
    { tenantId: person.tenantId, userId: person.userId, agentId, face: "console", requestId: null },
    {
      operation,
      target: `oauth-client:${clientId.slice(0, 200)}`,
      arguments: { app: appName.slice(0, 100) },
      outcome,
      message: `${operation === "oauth.app_connected" ? "Connected" : "Denied"} ${appName.slice(0, 100)}`,
      latencyMs: 0,
    },
  );
}

function domainOf(value: string): string {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.host : "";
  } catch {
    return "";
  }
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new Error("consent form too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location, "cache-control": "no-store" });
  res.end();
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string) {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
  });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Signpost</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#111}
h1{font-size:1.4rem}.flag{display:inline-block;background:#fff3cd;color:#664d03;padding:0 .4rem;border-radius:.25rem;font-size:.9rem}
button{font:inherit;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:.375rem;border:1px solid #111;background:#111;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#111}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`);
}
