import type { Db } from "../../db/client";
import { resolveConsoleSession, SESSION_COOKIE } from "../console-session";
import { finishConnect, startConnect } from "./connect-flow";

/**
 * The console's connect pages as web-standard handlers (the app's route files call them; tests
 * serve them as they are): `/connect/<connector>` starts a signed-in person's connect and
 * `/connect-callback` is where the system sends them back. The person is the console session's,
 * never anything in the URL: a link opened by someone else connects that someone's own account.
 */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string): Response {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      },
    },
  );
}

function sessionToken(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join("="));
  }
  return null;
}

/** Not signed in: to the console's sign-in, and back here after it (a same-site path only). */
function toSignIn(req: Request): Response {
  const url = new URL(req.url);
  return new Response(null, {
    status: 303,
    headers: {
      location: `/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`,
      "cache-control": "no-store",
    },
  });
}

/** GET /connect/<connector>: to the system's consent, with a fresh state bound to this person. */
export async function handleConnectStart(
  db: Db,
  req: Request,
  connector: string,
  publicUrl: string,
): Promise<Response> {
  const person = await resolveConsoleSession(db, sessionToken(req));
  if (!person) return toSignIn(req);
  if (!/^[a-z][a-z0-9]{1,29}$/.test(connector))
    return page(404, "No such system", "<p>Nothing to connect here.</p>");
  const started = await startConnect(db, { ...person }, connector, publicUrl);
  if (!started.ok) return page(started.status, "Cannot connect", `<p>${escapeHtml(started.message)}</p>`);
  return new Response(null, {
    status: 303,
    headers: { location: started.value.href, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

/** GET /connect-callback: the system's answer; the tokens are stored, the page says "connected". */
export async function handleConnectCallback(db: Db, req: Request, publicUrl: string): Promise<Response> {
  const person = await resolveConsoleSession(db, sessionToken(req));
  if (!person) return toSignIn(req);
  const done = await finishConnect(db, { ...person }, new URL(req.url), publicUrl);
  if (!done.ok)
    return page(
      done.status,
      "Not connected",
      `<p data-testid="connect-error">${escapeHtml(done.message)}</p>`,
    );
  return page(
    200,
    `Connected to ${done.value.title}`,
    `<p data-testid="connected">Your ${escapeHtml(done.value.title)} account is connected. Go back to your agent and ask it to try again.</p><p><a href="/settings">Your connections</a></p>`,
  );
}
