import * as oidc from "openid-client";
import { ConnectionRequiredError } from "../../connectors/sdk/person-auth";
import { SystemUnavailableError } from "../../connectors/sdk/system-errors";
import type { Db } from "../../db/client";
import { logger } from "../../logger";
import {
  type ConnectionRef,
  dropConnection,
  findConnection,
  openToken,
  saveConnection,
} from "./person-connections";
import type { PersonOAuthClient } from "./person-oauth-client";

/** A token this close to its expiry is refreshed before use (a slow call must not outlive it). */
export const REFRESH_MARGIN_MS = 30_000;
/** How long one instance holds the refresh of a connection before another may take over. */
const LEASE_MS = 15_000;
/** How often an instance waiting on another's refresh looks again, and for how long at most. */
const WAIT_STEP_MS = 100;
const WAIT_MAX_MS = 10_000;
/** `lastUsedAt` is kept to the minute: one write a minute per connection, not one per call. */
const LAST_USE_RESOLUTION_MS = 60_000;

type Row = NonNullable<Awaited<ReturnType<typeof findConnection>>>;

export interface PersonTokenInput {
  db: Db;
  ref: ConnectionRef;
  title: string;
  /** The OAuth client, or why there is none (then no refresh can happen). */
  client: PersonOAuthClient | { problem: string };
  now?: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The person's access token for this connector, fresh: refreshed when it is about to expire,
 * by one instance at a time (a lease taken by compare-and-set on the row; the others wait for
 * its result and use it). No connection, or one the system no longer honours: ConnectionRequiredError.
 */
export async function personAccessToken(input: PersonTokenInput): Promise<string> {
  const { db, ref, title } = input;
  const now = input.now ?? Date.now;
  const started = now();
  let row = await findConnection(db, ref);
  for (;;) {
    if (!row) throw new ConnectionRequiredError(ref.connector, title, "not connected yet");
    if (!row.expiresAt || row.expiresAt.getTime() - REFRESH_MARGIN_MS > now()) {
      let token: string;
      try {
        token = openToken(ref, "access", row.accessToken);
      } catch {
        // Sealed for another person, tenant or key (a moved or altered row): never used; connect again.
        logger.warn({ connector: ref.connector }, "a person's sealed token does not open; dropped");
        await dropConnection(db, ref);
        throw new ConnectionRequiredError(ref.connector, title, "the stored connection could not be read");
      }
      await touch(db, row, now());
      return token;
    }
    if (!row.refreshToken || "problem" in input.client) {
      // Expired and nothing to renew it with: the person connects again.
      await dropConnection(db, ref);
      throw new ConnectionRequiredError(ref.connector, title, "the connection expired");
    }
    const leaseUntil = new Date(now() + LEASE_MS);
    const took = await db.personConnection.updateMany({
      where: {
        id: row.id,
        updatedAt: row.updatedAt,
        OR: [{ refreshLeaseUntil: null }, { refreshLeaseUntil: { lt: new Date(now()) } }],
      },
      data: { refreshLeaseUntil: leaseUntil },
    });
    if (took.count === 1) return refresh(input, row);
    // Another instance refreshes (or just did): wait for its result.
    if (now() - started > WAIT_MAX_MS)
      throw new SystemUnavailableError(`${title}: the connection is being renewed; try again shortly`);
    await sleep(WAIT_STEP_MS);
    row = await findConnection(db, ref);
  }
}

async function refresh(input: PersonTokenInput, row: Row): Promise<string> {
  const { db, ref, title } = input;
  const client = input.client as PersonOAuthClient;
  let answer: oidc.TokenEndpointResponse;
  try {
    answer = await oidc.refreshTokenGrant(
      client.config,
      openToken(ref, "refresh", row.refreshToken as string),
    );
  } catch (error) {
    // The server answered that the grant is gone (revoked, expired): the person connects again.
    if (error instanceof oidc.ResponseBodyError) {
      logger.warn({ connector: ref.connector, error: error.error }, "a person's refresh token was refused");
      await dropConnection(db, ref);
      throw new ConnectionRequiredError(ref.connector, title, "the system no longer accepts the connection");
    }
    // Not reached or no usable answer: the lease is released and the call is retryable.
    await db.personConnection.updateMany({ where: { id: row.id }, data: { refreshLeaseUntil: null } });
    logger.warn({ connector: ref.connector, err: (error as Error).name }, "a person's token refresh failed");
    throw new SystemUnavailableError(`${title}: the connection could not be renewed now; try again shortly`);
  }
  const saved = await saveConnection(db, ref, {
    accessToken: answer.access_token,
    // A server that rotates refresh tokens sends a new one; one that does not keeps the old valid.
    refreshToken: answer.refresh_token ?? openToken(ref, "refresh", row.refreshToken as string),
    expiresAt: typeof answer.expires_in === "number" ? new Date(Date.now() + answer.expires_in * 1000) : null,
    scopes: answer.scope ? answer.scope.split(" ") : row.scopes.split(" ").filter(Boolean),
  });
  await touch(db, saved, Date.now());
  return answer.access_token;
}

async function touch(db: Db, row: { id: string; lastUsedAt: Date | null }, at: number) {
  if (row.lastUsedAt && at - row.lastUsedAt.getTime() < LAST_USE_RESOLUTION_MS) return;
  // Not `update`: @updatedAt stays the refresh's stamp, which the lease's compare-and-set reads.
  await db.personConnection.updateMany({ where: { id: row.id }, data: { lastUsedAt: new Date(at) } });
}
