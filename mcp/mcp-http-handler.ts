import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  type McpServer,
  originValidationResponse,
} from "@modelcontextprotocol/server";
import type { RateDecision } from "@/server/gateway/rate-limiter";
import { type Face, parseFaces } from "./faces";

/** What a valid agent key resolves to: the trusted context of every call it makes. */
export interface AgentIdentity<Ctx> {
  context: Ctx;
  /** Shown to the SDK as `authInfo.clientId`; never an authorization input of ours. */
  clientId: string;
}

export interface McpHttpHandlerOptions<Ctx> {
  /** Resolves a bearer agent key; `null` for unknown or revoked keys. */
  authenticate(key: string): Promise<AgentIdentity<Ctx> | null>;
  /** Builds the per-request server for this caller and face selection. */
  createServer(context: Ctx, faces: Face[], request: Request): McpServer | Promise<McpServer>;
  /**
   * The server answering the protocol handshake without a key (`initialize`, `server/discover`,
   * `ping`): name, version and capabilities only, no tools or resources. Omit to require a key
   * for the handshake too.
   */
  createHandshakeServer?: () => McpServer;
  /** The caller's call budget, checked after the key and before the SDK; omit for none. */
  rateLimit?: (context: Ctx) => Promise<RateDecision> | RateDecision;
  /** Hostnames accepted in Host and Origin (DNS rebinding protection). Defaults to localhost names. */
  allowedHostnames?: string[];
  onerror?: (error: Error) => void;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The whole HTTP face of `/mcp`, runtime-neutral (Request → Response) so the Next route
 * and a plain node:http server in tests serve exactly the same code.
 * Order matters: DNS-rebinding checks come first (a hostile page must learn nothing),
 * then the key, then the SDK.
 */
export function createMcpHttpHandler<Ctx>(options: McpHttpHandlerOptions<Ctx>) {
  const allowed = options.allowedHostnames ?? allowedHostnamesFromEnv();

  return async function handle(request: Request): Promise<Response> {
    const rejected =
      hostHeaderValidationResponse(request, allowed) ?? originValidationResponse(request, allowed);
    if (rejected) return rejected;

    // Stateless: no standalone SSE stream and no sessions to delete.
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed.", { Allow: "POST" });
    }

    const url = new URL(request.url);
    const faces = parseFaces(url.searchParams.get("faces"));
    if (!faces) {
      return jsonRpcError(400, -32602, "Unknown face: use faces=actions, faces=browse or both.");
    }

    const authorization = request.headers.get("authorization");
    if (!authorization && options.createHandshakeServer && (await isHandshakeOnly(request))) {
      const handshake = options.createHandshakeServer;
      const handler = createMcpHandler(() => handshake(), { legacy: "stateless", onerror: options.onerror });
      try {
        return await handler.fetch(request);
      } finally {
        void handler.close();
      }
    }

    const match = BEARER.exec(authorization ?? "");
    const identity = match?.[1] ? await options.authenticate(match[1]) : null;
    if (!identity) {
      const resource = `${url.origin}${url.pathname}`;
      return jsonRpcError(401, -32001, match ? "Invalid or revoked agent key." : "Missing agent key.", {
        "WWW-Authenticate": `Bearer realm="signpost", resource="${resource}", error="${match ? "invalid_token" : "invalid_request"}", error_description="${match ? "The agent key is invalid or revoked" : "Send Authorization: Bearer <agent key>"}"`,
      });
    }

    const budget = await options.rateLimit?.(identity.context);
    if (budget && !budget.ok) return rateLimited(budget.retryAfterMs);

    const handler = createMcpHandler(() => options.createServer(identity.context, faces, request), {
      legacy: "stateless",
      onerror: options.onerror,
    });
    try {
      return await handler.fetch(request, {
        authInfo: { token: "[agent key]", clientId: identity.clientId, scopes: [] },
      });
    } finally {
      void handler.close();
    }
  };
}

// Lifecycle messages that reveal nothing but the server's name, version and capabilities.
const HANDSHAKE_METHODS = new Set(["initialize", "notifications/initialized", "server/discover", "ping"]);

/** True when every JSON-RPC message in the body is part of the handshake. */
async function isHandshakeOnly(request: Request): Promise<boolean> {
  try {
    const text = await request.clone().text();
    if (text.length > 65_536) return false;
    const body = JSON.parse(text) as unknown;
    const messages = Array.isArray(body) ? body : [body];
    return (
      messages.length > 0 &&
      messages.every(
        (m) =>
          !!m && typeof m === "object" && HANDSHAKE_METHODS.has(String((m as { method?: unknown }).method)),
      )
    );
  } catch {
    return false;
  }
}

function allowedHostnamesFromEnv(): string[] {
  const extra = (process.env.SIGNPOST_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((host) => host.trim())
    .filter(Boolean);
  // The public URL people and hosts use is allowed too, so a deployment only sets one variable.
  try {
    if (process.env.SIGNPOST_PUBLIC_URL) extra.push(new URL(process.env.SIGNPOST_PUBLIC_URL).hostname);
  } catch {
    // an invalid SIGNPOST_PUBLIC_URL adds nothing
  }
  return [...localhostAllowedHostnames(), ...extra];
}

/**
 * 429 with Retry-After, and the typed outcome in the JSON-RPC error's `data` so an agent that
 * only sees the error still learns it may retry and when.
 */
function rateLimited(retryAfterMs: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const message = `Too many calls with this agent key; retry in ${seconds} s.`;
  return jsonRpcError(
    429,
    -32000,
    message,
    { "Retry-After": String(seconds) },
    {
      outcome: "temporarily_unavailable",
      reason: "rate_limited",
      message,
      retryable: true,
      retry_after_s: seconds,
      next_actions: [],
    },
  );
}

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: Record<string, unknown>,
) {
  return Response.json(
    { jsonrpc: "2.0", error: { code, message, ...(data ? { data } : {}) }, id: null },
    { status, headers: { ...headers, "Content-Type": "application/json" } },
  );
}
