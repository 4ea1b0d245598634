import { randomUUID } from "node:crypto";
import {
  type AuthInfo,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { type Db, getDb } from "@/server/db/client";
import { createAgentKeyCache, readTenantRow, type TenantRow } from "@/server/gateway/agent-key-cache";
import { consumeNonce } from "@/server/gateway/consume-nonce";
import { createGateway, type Gateway } from "@/server/gateway/create-gateway";
import { describeDecision } from "@/server/gateway/permissions";
import { agentRateFromEnv, type RateLimitStore, rateLimitStoreFromEnv } from "@/server/gateway/rate-limiter";
import { requestIdOf } from "@/server/gateway/request-id";
import { type TrustedContext, withFace, withRequestId } from "@/server/gateway/trusted-context";
import { masterKey } from "@/server/gateway/vault";
import { logger } from "@/server/logger";
import { identifyConnectedApp } from "@/server/oauth/connected-apps";
import { FACE_SCOPES } from "@/server/oauth/oauth-scopes";
import { oauthUrls } from "@/server/oauth/oauth-urls";
import { createAccessTokenVerifier } from "@/server/oauth/verify-access-token";
import { resolveScriptLimits } from "@/server/script/script-limits";
import { createAgentRateGuard } from "./agent-rate-guard";
import {
  createSignpostMcpServer,
  type ServerBuildScope,
  SIGNPOST_CAPABILITIES,
  type SignpostCaller,
  type SignpostMcpDeps,
} from "./create-signpost-mcp-server";
import type { Face } from "./faces";
import type { GatewayPort } from "./gateway-port";
import type { McpHttpRequest } from "./mcp-http-exchange";
import { createMcpHttpHandler, type McpOAuthOptions } from "./mcp-http-handler";
import { createMcpServerPool } from "./mcp-server-pool";
import type { ScriptFaceBackend } from "./register-script-tools";
import { createSignpostRequestStateCodec, requestStateKey } from "./request-state";
import { createSignpostBrowseBackend } from "./signpost-browse-backend";
import { toolCallAccessLog } from "./tool-call-access-log";

/**
 * Scripts one tenant may run at once in this instance: the sandbox threads' slots are shared by
 * every tenant (see run-script-in-worker.ts), and one tenant's keys must leave most of them.
 */
const SCRIPTS_PER_TENANT = 4;

/** What a caller's calls need of their HTTP request: a script run its arrival and abort, the log its line. */
interface CallerRequest {
  arrivedAt: number;
  signal: AbortSignal;
  addToAccessLine?: McpHttpRequest["addToAccessLine"];
}

export interface SignpostMcpOptions {
  db: Db;
  /** Reuse a gateway (tests share one with their assertions); default: a new one on `db`. */
  gateway?: Gateway;
  /** Where people open the console (approval links). Default: SIGNPOST_PUBLIC_URL or localhost:3000. */
  publicUrl?: string;
  allowedHostnames?: string[];
  /** Calls per minute per agent key; default `SIGNPOST_AGENT_RATE_LIMIT` or 600; 0 = off. */
  callsPerMinute?: number;
  /** Where the budget is counted; default from the environment (Redis, PostgreSQL or this process). */
  rateLimitStore?: RateLimitStore;
}

export function defaultPublicUrl(): string {
  return (process.env.SIGNPOST_PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? "3000"}`).replace(
    /\/$/,
    "",
  );
}

/** The gateway as the MCP faces see it (the two already agree on shapes; this only narrows). */
export function gatewayPort(gw: Gateway): GatewayPort<TrustedContext> {
  return {
    operations: gw.operations as unknown as GatewayPort<TrustedContext>["operations"],
    approvalStatus: (ctx, input) =>
      gw.approvalStatus(ctx, input) as ReturnType<GatewayPort<TrustedContext>["approvalStatus"]>,
    approvalUrl: gw.approvalUrl,
    agentIdOf: gw.agentIdOf,
    mayApprove: gw.mayApprove,
    declineApproval: (ctx, input) =>
      gw.declineApproval(ctx, input) as ReturnType<
        NonNullable<GatewayPort<TrustedContext>["declineApproval"]>
      >,
    approvalTasks: gw.approvalTasks,
    agentNews: (ctx, about) =>
      gw.agentNews(ctx, about) as ReturnType<NonNullable<GatewayPort<TrustedContext>["agentNews"]>>,
  };
}

/**
 * The composition root of the MCP faces: gateway, request-state key, browse backend, and the
 * HTTP handler the Next route (and tests, on plain node:http) serve. Stdio uses `serverFor`.
 */
export function createSignpostMcp(options: SignpostMcpOptions) {
  const { db } = options;
  const publicUrl = (options.publicUrl ?? defaultPublicUrl()).replace(/\/$/, "");
  const gw = options.gateway ?? createGateway({ db, approvalUrl: (id) => `${publicUrl}/confirm/${id}` });
  const port = gatewayPort(gw);
  const requestState = createSignpostRequestStateCodec(requestStateKey(masterKey()), (nonce, expiresAt) =>
    consumeNonce(db, nonce, expiresAt),
  );

  /**
   * Who one request's calls run as: the caller's context stamped with the tenant's setup, and
   * what its calls open. `request`: the HTTP request's arrival and abort signal (absent over stdio).
   */
  async function callerFor(
    caller: TrustedContext,
    request?: CallerRequest,
    /** The tenant row as read with the caller's key this call; absent: read here. */
    tenantRow?: TenantRow | null,
  ): Promise<SignpostCaller<TrustedContext>> {
    const tenant =
      tenantRow !== undefined ? tenantRow : await readTenantRow(db, caller.tenantId, caller.agentId);
    const tenantName = tenant?.name ?? caller.tenantId;
    // The stamps of the tenant's cached setup and the agent's applied actions, read with the row
    // this request reads anyway: every call of this request uses the rules, settings and secrets
    // as of (at least) this moment.
    const context = stampedWith(caller, tenant);
    let browse: ReturnType<typeof createSignpostBrowseBackend> | undefined;
    return {
      context,
      browseBackend: () => {
        browse ??= createSignpostBrowseBackend(gw, context, { publicUrl, tenantName });
        return browse;
      },
      scriptRun: () => scriptRun(context, tenantName, tenant?.scriptLimits, request),
      observeToolCall: toolCallAccessLog(context, request),
    };
  }

  const deps = (callerOf: SignpostMcpDeps<TrustedContext>["callerOf"]): SignpostMcpDeps<TrustedContext> => ({
    gateway: port,
    requestState,
    callerOf,
    scripts: true,
  });

  /** A server of its own for one caller (stdio, the console's tool sizes, tests). */
  async function serverFor(
    caller: TrustedContext,
    faces: Face[],
    request?: CallerRequest,
    tenantRow?: TenantRow | null,
    /** What this server must hold and the era it answers in; absent: everything, 2025. */
    scope: ServerBuildScope = { resources: true },
  ): Promise<McpServer> {
    const bound = await callerFor(caller, request, tenantRow);
    return createSignpostMcpServer(
      deps(() => bound),
      faces,
      scope,
    );
  }

  /** Each request's caller, by the request's own AuthInfo object (what its handlers are given). */
  const callers = new WeakMap<AuthInfo, SignpostCaller<TrustedContext>>();
  /**
   * Servers that answer one request after another: built once per face selection, their handlers
   * find each call's caller from its request, and a request without one is refused (an error),
   * never answered as someone else.
   */
  const pool = createMcpServerPool();
  function callerOfRequest(ctx?: ServerContext): SignpostCaller<TrustedContext> {
    const auth = ctx?.http?.authInfo;
    const found = auth && callers.get(auth);
    if (!found) throw new Error("a shared MCP server was called outside a request of /mcp");
    return found;
  }

  /**
   * One script run for a caller: its calls go through the gateway as face `script`, under the
   * HTTP request's id (a run outside HTTP, over stdio, gets its own), so the run's row and its
   * calls' rows share one id; each call spends the key's budget like a direct call.
   */
  /** Agent keys with a script running in this instance (one each; see ScriptFaceBackend.claim). */
  const scriptsRunning = new Set<string>();
  /** Scripts running per tenant in this instance (at most SCRIPTS_PER_TENANT). */
  const tenantScripts = new Map<string, number>();

  function scriptRun(
    caller: TrustedContext,
    tenantName: string,
    storedLimits: unknown,
    request?: CallerRequest,
  ): ScriptFaceBackend<TrustedContext> {
    const ctx = withFace(caller.requestId ? caller : withRequestId(caller, randomUUID()), "script");
    return {
      context: ctx,
      sandboxGroup: ctx.tenantId,
      startedAt: request?.arrivedAt,
      signal: request?.signal,
      browse: createSignpostBrowseBackend(gw, ctx, { publicUrl, tenantName, face: "script" }),
      async authorize() {
        // Nothing to name but the face itself: a rule `script` on `*` turns it off for a role or agent.
        const decision = await gw.authorize(ctx, "script", "script");
        return { decision: decision.decision, message: decision.message, audit: describeDecision(decision) };
      },
      claim() {
        const key = ctx.agentId ?? ctx.userId;
        if (scriptsRunning.has(key))
          return { refused: "This agent key already runs a script; wait for its answer, then send the next" };
        const tenant = tenantScripts.get(ctx.tenantId) ?? 0;
        if (tenant >= SCRIPTS_PER_TENANT)
          return {
            refused: `This tenant already runs ${SCRIPTS_PER_TENANT} scripts at once; retry when one has answered`,
          };
        scriptsRunning.add(key);
        tenantScripts.set(ctx.tenantId, tenant + 1);
        return {
          release: () => {
            scriptsRunning.delete(key);
            const left = (tenantScripts.get(ctx.tenantId) ?? 1) - 1;
            if (left > 0) tenantScripts.set(ctx.tenantId, left);
            else tenantScripts.delete(ctx.tenantId);
          },
        };
      },
      async limits() {
        const { limits, invalid } = resolveScriptLimits(storedLimits);
        if (invalid)
          logger.warn(
            { tenant: ctx.tenantId },
            "script: the tenant's scriptLimits do not parse; defaults apply",
          );
        return limits;
      },
      async charge() {
        // Under the run's context: a refusal's audit row is face `script` with the run's request id.
        const decision = await rateLimit(ctx, 1);
        return decision.ok
          ? { ok: true }
          : { ok: false, retryAfterS: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) };
      },
      async record(event) {
        await gw.recordAudit(ctx, { operation: "script.ran", target: "script", ...event });
      },
    };
  }

  const agentKeys = createAgentKeyCache(db);
  /** The tenant row each identity's call read with its key (keyed by the identity's own context object). */
  const tenantRows = new WeakMap<TrustedContext, TenantRow | null>();

  async function authenticate(key: string) {
    const found = await agentKeys.identify(key);
    if (!found) return null;
    // A context of this call's own (the cached one is shared), carrying the stamps read with it.
    const context = stampedWith(found.context, found.tenant);
    tenantRows.set(context, found.tenant);
    return {
      context,
      clientId: context.agentId ?? context.userId,
      ...(context.agentFaces ? { faces: context.agentFaces } : {}),
    };
  }

  const oauthBase = options.publicUrl ?? process.env.SIGNPOST_PUBLIC_URL;
  const oauthByBase = new Map<string, McpOAuthOptions>();

  const rateLimit = createAgentRateGuard(
    db,
    options.callsPerMinute ?? agentRateFromEnv(),
    undefined,
    options.rateLimitStore ?? rateLimitStoreFromEnv(),
  );

  const handle = createMcpHttpHandler<TrustedContext>({
    authenticate,
    createServer: async (context, faces, request, scope, auth) => {
      const caller = withRequestId(context, requestIdOf(request));
      const http: CallerRequest = {
        arrivedAt: Date.now(),
        signal: request.signal,
        addToAccessLine: request.addToAccessLine,
      };
      if (!scope.reusable) return serverFor(caller, faces, http, tenantRows.get(context), scope);
      callers.set(auth, await callerFor(caller, http, tenantRows.get(context)));
      // Kept per era too: a server answers in the era it was built for (see ServerScope.era).
      return pool.take(`${scope.era}:${faces.join(",")}`, () =>
        createSignpostMcpServer(deps(callerOfRequest), faces, { resources: false, era: scope.era }),
      );
    },
    releaseServer: (server) => pool.give(server),
    createHandshakeServer: () =>
      new McpServer(
        { name: "signpost", title: "Signpost", version: "0.1.0" },
        { capabilities: SIGNPOST_CAPABILITIES },
      ),
    rateLimit,
    // Tools come from code and the caller's faces; keyed by caller anyway, so a list never
    // crosses agents, roles or tenants.
    toolListKey: (context) => `${context.tenantId}|${context.agentId ?? context.userId}|${context.role}`,
    oauth: (endpoint) => {
      // The issuer and audience are this deployment's public URL; without one (a local start),
      // the origin the host used, which the Host check above limited to this machine's names.
      const base = oauthBase ?? endpoint.origin;
      const found = oauthByBase.get(base) ?? oauthOptions(db, base);
      oauthByBase.set(base, found);
      return found;
    },
    // A call to a tool this agent does not have (`decide_approval`, a browse tool without the
    // browse face) is refused by the SDK; support still sees it, like any other call.
    onRefusedToolCalls: async (context, calls) => {
      for (const call of calls)
        await gw.recordAudit(context, {
          operation: "mcp.tool_refused",
          target: `tool:${call.tool.slice(0, 100)}`,
          arguments: call.arguments as Record<string, unknown>,
          outcome: "rejected",
          message:
            call.reason === "unknown_tool"
              ? `No tool ${JSON.stringify(call.tool.slice(0, 100))} on this endpoint (refused by the protocol layer)`
              : `Tool ${call.tool}: arguments must be a JSON object (refused by the protocol layer)`,
          latencyMs: 0,
        });
    },
    allowedHostnames: options.allowedHostnames,
    onerror: (error) => logger.warn({ err: error.message }, "mcp: protocol error"),
  });

  return {
    handle,
    /** The node route's entry (serve.ts): the same handler, without WHATWG Request/Response. */
    answer: handle.answer,
    serverFor,
    /** Servers built for /mcp's shared pool so far (a test tells reuse from a build per request). */
    serversBuilt: () => pool.built(),
    authenticate,
    gateway: gw,
    publicUrl,
    close: () => rateLimit.close(),
  };
}

/**
 * OAuth access tokens on `/mcp`: verified against this deployment's keys (shared by every
 * instance through the master key) for this `/mcp` as the audience, then resolved to the
 * connected app's agent, which a revoke ends at once.
 */
function oauthOptions(db: Db, publicUrl: string): McpOAuthOptions {
  const { issuer, resource, resourceMetadataUrl } = oauthUrls(publicUrl);
  const verify = createAccessTokenVerifier({ masterKey: masterKey(), issuer, resource });
  const invalid = () =>
    new OAuthError(OAuthErrorCode.InvalidToken, "The access token is invalid, expired or revoked");
  return {
    resource: new URL(resource),
    resourceMetadataUrl,
    scopeOfFace: (face) => FACE_SCOPES[face],
    verifier: {
      async verifyAccessToken(token) {
        const claims = await verify(token);
        if (!claims) throw invalid();
        const context = await identifyConnectedApp(db, claims);
        if (!context) throw invalid();
        return {
          token,
          clientId: claims.clientId,
          scopes: claims.scopes,
          expiresAt: claims.expiresAt,
          resource: new URL(resource),
          extra: { identity: { context, clientId: context.agentId ?? context.userId } },
        };
      },
    },
  };
}

export type SignpostMcp = ReturnType<typeof createSignpostMcp>;

const holder = globalThis as typeof globalThis & { __signpostMcp?: SignpostMcp };

/** The process-wide instance on the process database (Next route, CLI). */
export function getSignpostMcp(): SignpostMcp {
  holder.__signpostMcp ??= createSignpostMcp({ db: getDb() });
  return holder.__signpostMcp;
}

/** `caller` with the stamps of the row its call read: the tenant's setup, the agent's applied actions. */
function stampedWith(caller: TrustedContext, tenant: TenantRow | null): TrustedContext {
  const { tenantVersion: _t, appliedActionsVersion: _a, ...rest } = caller;
  if (!tenant) return rest;
  return {
    ...rest,
    tenantVersion: tenant.configVersion,
    ...(tenant.appliedActionsVersion !== null && caller.agentId
      ? { appliedActionsVersion: tenant.appliedActionsVersion }
      : {}),
  };
}
