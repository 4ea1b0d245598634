import { createHash, randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import type { AnyConnector } from "../../connectors/sdk/define-connector";
import { tenantConnectors } from "../../connectors/tenant-connectors";
import type { Db } from "../../db/client";
import { logger } from "../../logger";
import { declaredSettings } from "../connector-credentials";
import { recordConsoleAudit } from "../console/record-console-audit";
import { tenantConfigSnapshot } from "../tenant-config-snapshot";
import { connectCallbackUrl } from "./connect-url";
import {
  type ConnectionSummary,
  dropConnection,
  findConnection,
  openToken,
  saveConnection,
  sealToken,
  summarize,
} from "./person-connections";
import { type PersonOAuthClient, personOAuthClient } from "./person-oauth-client";

/** A connect must be finished within this time after it was started. */
export const CONNECT_STATE_TTL_MS = 10 * 60_000;

/** The signed-in person (from the console session, never from the request's arguments). */
export interface Person {
  tenantId: string;
  userId: string;
  requestId?: string | null;
}

export type ConnectResult<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

const hashState = (state: string) => createHash("sha256").update(state).digest("hex");

/** A per-person connector of the person's tenant, with its OAuth client; never another tenant's. */
async function clientFor(
  db: Db,
  tenantId: string,
  connector: string,
): Promise<ConnectResult<{ def: AnyConnector; client: PersonOAuthClient }>> {
  const def = (await tenantConnectors(db, tenantId)).find((c) => c.id === connector);
  if (!def?.personAuth) return { ok: false, status: 404, message: "No such system to connect." };
  const snapshot = await tenantConfigSnapshot(db, { tenantId });
  const config = snapshot.config(def.id);
  if (config && !config.enabled)
    return {
      ok: false,
      status: 409,
      message: `${def.title} is switched off by an admin of your organisation.`,
    };
  const client = personOAuthClient(
    def,
    declaredSettings(config, def),
    snapshot.secret(def.id, "oauth_client_secret"),
  );
  if ("problem" in client) return { ok: false, status: 409, message: `${def.title}: ${client.problem}.` };
  return { ok: true, value: { def, client } };
}

/**
 * Starts a person's connect: a fresh `state` (stored hashed, bound to the person, tenant and
 * connector, single-use, ten minutes) and a PKCE verifier (sealed); answers the system's
 * authorization URL to send the browser to.
 */
export async function startConnect(
  db: Db,
  person: Person,
  connector: string,
  publicUrl: string,
): Promise<ConnectResult<URL>> {
  const found = await clientFor(db, person.tenantId, connector);
  if (!found.ok) return found;
  const { client } = found.value;
  const state = randomBytes(32).toString("base64url");
  const verifier = oidc.randomPKCECodeVerifier();
  const ref = { tenantId: person.tenantId, userId: person.userId, connector };
  await db.connectAttempt.create({
    data: {
      stateHash: hashState(state),
      ...ref,
      codeVerifier: sealToken(ref, "verifier", verifier),
      expiresAt: new Date(Date.now() + CONNECT_STATE_TTL_MS),
    },
  });
  const url = oidc.buildAuthorizationUrl(client.config, {
    redirect_uri: connectCallbackUrl(publicUrl),
    response_type: "code",
    ...(client.scopes.length ? { scope: client.scopes.join(" ") } : {}),
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  });
  return { ok: true, value: url };
}

/**
 * The system sent the person back: the state is used up first (whatever happens next, it never
 * works twice), then it must be this signed-in person's own, of this tenant, unexpired; the code
 * is exchanged with the PKCE verifier and the tokens sealed. A code from another authorization
 * server (an `iss` that is not the connector's) is refused by the library.
 */
export async function finishConnect(
  db: Db,
  person: Person,
  /** The callback URL as the browser opened it (query included). */
  callback: URL,
  publicUrl: string,
): Promise<ConnectResult<{ connector: string; title: string }>> {
  const state = callback.searchParams.get("state");
  if (!state || state.length > 200)
    return { ok: false, status: 400, message: "This link is not a connect answer." };
  const stateHash = hashState(state);
  const used = await db.connectAttempt.updateMany({
    where: { stateHash, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  const attempt = used.count === 1 ? await db.connectAttempt.findUnique({ where: { stateHash } }) : null;
  if (!attempt)
    return {
      ok: false,
      status: 400,
      message: "This connect link was already used or has expired. Start again.",
    };
  // A connect started by someone else (a link forwarded, a session swapped): never bound to this person.
  if (attempt.tenantId !== person.tenantId || attempt.userId !== person.userId) {
    logger.warn({ connector: attempt.connector }, "a connect answer came back to another person");
    return { ok: false, status: 403, message: "This connect was started by someone else. Start your own." };
  }
  if (callback.searchParams.get("error"))
    return { ok: false, status: 400, message: "The system did not grant access. Nothing was connected." };
  const found = await clientFor(db, person.tenantId, attempt.connector);
  if (!found.ok) return found;
  const { def, client } = found.value;
  const ref = { tenantId: person.tenantId, userId: person.userId, connector: def.id };
  // The URL the system redirected to, on the public origin the redirect_uri names.
  const current = new URL(connectCallbackUrl(publicUrl));
  current.search = callback.search;
  let tokens: oidc.TokenEndpointResponse;
  try {
    tokens = await oidc.authorizationCodeGrant(client.config, current, {
      pkceCodeVerifier: openToken(ref, "verifier", attempt.codeVerifier),
      expectedState: state,
    });
  } catch (error) {
    logger.warn(
      { connector: def.id, err: (error as Error).name, code: (error as { code?: string }).code },
      "a connect's code exchange failed",
    );
    return { ok: false, status: 400, message: `${def.title} did not confirm the connection. Start again.` };
  }
  const row = await saveConnection(db, ref, {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    expiresAt: typeof tokens.expires_in === "number" ? new Date(Date.now() + tokens.expires_in * 1000) : null,
    scopes: tokens.scope ? tokens.scope.split(" ") : client.scopes,
  });
  await recordConsoleAudit(db, person, {
    operation: "connection.connected",
    target: `connection:${def.id}`,
    arguments: { connector: def.id, scopes: row.scopes },
    outcome: "applied",
    message: `connected their own ${def.title} account`,
  });
  return { ok: true, value: { connector: def.id, title: def.title } };
}

/** The person's own connections (system, scopes, since, last used): never a token. */
export async function listMyConnections(
  db: Db,
  person: Person,
): Promise<Array<ConnectionSummary & { title: string }>> {
  const defs = await tenantConnectors(db, person.tenantId);
  const rows = await db.personConnection.findMany({
    where: { tenantId: person.tenantId, userId: person.userId },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({
    ...summarize(r),
    title: defs.find((d) => d.id === r.connector)?.title ?? r.connector,
  }));
}

/** Who in the tenant connected which system (admins): names and times, never a token. */
export async function listTenantConnections(db: Db, tenantId: string) {
  const rows = await db.personConnection.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
  const users = await db.user.findMany({
    where: { tenantId, id: { in: rows.map((r) => r.userId) } },
    select: { id: true, email: true },
  });
  return rows.map((r) => ({ ...summarize(r), email: users.find((u) => u.id === r.userId)?.email ?? null }));
}

/** Revokes at the system where it offers revocation (best effort: the row goes either way). */
async function revokeUpstream(db: Db, row: NonNullable<Awaited<ReturnType<typeof findConnection>>>) {
  const found = await clientFor(db, row.tenantId, row.connector);
  if (!found.ok || !found.value.client.revocation) return false;
  const ref = { tenantId: row.tenantId, userId: row.userId, connector: row.connector };
  try {
    if (row.refreshToken)
      await oidc.tokenRevocation(found.value.client.config, openToken(ref, "refresh", row.refreshToken), {
        token_type_hint: "refresh_token",
      });
    await oidc.tokenRevocation(found.value.client.config, openToken(ref, "access", row.accessToken), {
      token_type_hint: "access_token",
    });
    return true;
  } catch (error) {
    logger.warn({ connector: row.connector, err: (error as Error).name }, "revoking a person's token failed");
    return false;
  }
}

/** The person disconnects one of their systems: revoked upstream where possible, forgotten here. */
export async function disconnect(
  db: Db,
  person: Person,
  connector: string,
): Promise<ConnectResult<{ revoked: boolean }>> {
  const ref = { tenantId: person.tenantId, userId: person.userId, connector };
  const row = await findConnection(db, ref);
  if (!row) return { ok: false, status: 404, message: "No such connection." };
  const revoked = await revokeUpstream(db, row);
  await dropConnection(db, ref);
  await recordConsoleAudit(db, person, {
    operation: "connection.disconnected",
    target: `connection:${connector}`,
    arguments: { connector, revoked },
    outcome: "applied",
  });
  return { ok: true, value: { revoked } };
}

/**
 * An admin cuts a system off for everyone of the tenant: every person's connection is revoked
 * and forgotten, and the connector switched off, so nobody connects again until it is switched on.
 */
export async function cutOffConnector(
  db: Db,
  admin: Person,
  connector: string,
): Promise<ConnectResult<{ dropped: number }>> {
  const def = (await tenantConnectors(db, admin.tenantId)).find((c) => c.id === connector);
  if (!def?.personAuth) return { ok: false, status: 404, message: "No such system." };
  const rows = await db.personConnection.findMany({ where: { tenantId: admin.tenantId, connector } });
  for (const row of rows) await revokeUpstream(db, row);
  const { count } = await db.personConnection.deleteMany({ where: { tenantId: admin.tenantId, connector } });
  await db.connectorConfig.upsert({
    where: { tenantId_connector: { tenantId: admin.tenantId, connector } },
    create: { tenantId: admin.tenantId, connector, settings: {}, enabled: false },
    update: { enabled: false },
  });
  await recordConsoleAudit(db, admin, {
    operation: "connection.cut_off",
    target: `connector:${connector}`,
    arguments: { connector, dropped: count },
    outcome: "applied",
  });
  return { ok: true, value: { dropped: count } };
}
