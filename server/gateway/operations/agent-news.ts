import type { Db } from "../../db/client";
import { logger } from "../../logger";
import { redactText } from "../../redact-secrets";
import type { GatewayOutcome } from "../gateway-pipeline";
import type { TrustedContext } from "../trusted-context";

/** The most actions one answer brings news of; the rest come with the calls after it. */
const MAX_NEWS = 3;

/** Agents this process remembers as having no news at a stamp; beyond this the oldest goes. */
const MAX_QUIET = 10_000;

/**
 * Flags an agent's action as news for that agent: a person decided on it (approved, and the
 * approval's run ended; or declined). Also bumps the agent's applied-actions stamp, which every
 * call reads with its tenant row, so each instance asks for news only after it moved.
 */
export async function leaveAgentNews(db: Db, tenantId: string, actionId: string): Promise<void> {
  try {
    const action = await db.action.findFirst({
      where: { id: actionId, tenantId },
      select: { agentId: true },
    });
    if (!action?.agentId) return;
    await db.$transaction([
      db.action.update({ where: { id: actionId }, data: { agentNotice: true } }),
      db.agent.update({ where: { id: action.agentId }, data: { appliedActionsVersion: { increment: 1 } } }),
    ]);
  } catch (error) {
    // The decision and its run stand, on record: the person is not told it failed because the
    // news did not get stored. The agent still reads the action with get_context.
    logger.warn(
      { err: redactText(String(error)), action: actionId },
      "news of a decision not left for its agent",
    );
  }
}

/**
 * What a person decided on this agent's actions since it last heard: each such action's state,
 * read as get_context reads it (authorized and audited as that read), brought with the agent's
 * next call whatever the tool. A model on a host that cannot keep a call open while the person
 * approves was told "nothing to call now", and still read the action after every approval to
 * learn whether it happened (issue 23, round 17: 6 of Alice's 27 calls); now its next answer
 * says so. News is taken once: the call that clears an action's flag is the one that brings it,
 * so two calls at once never both do. `about` is the action this call itself answers about (its
 * get_context, its new version): its flag is cleared and nothing is repeated.
 */
export function agentNewsOperation(
  db: Db,
  getContext: (ctx: TrustedContext | null, raw: unknown) => Promise<GatewayOutcome>,
) {
  /** tenant/agent → the stamp at which it had no news here: no query until that stamp moves. */
  const quiet = new Map<string, number>();
  const remember = (key: string, stamp: number | undefined) => {
    if (stamp === undefined) return;
    quiet.delete(key);
    quiet.set(key, stamp);
    if (quiet.size > MAX_QUIET) quiet.delete(quiet.keys().next().value as string);
  };

  return async function agentNews(ctx: TrustedContext | null, about?: string): Promise<GatewayOutcome[]> {
    if (!ctx?.agentId) return [];
    const key = `${ctx.tenantId}/${ctx.agentId}`;
    const stamp = ctx.appliedActionsVersion;
    if (stamp !== undefined && quiet.get(key) === stamp) return [];
    const flagged = await db.action.findMany({
      where: { tenantId: ctx.tenantId, agentId: ctx.agentId, agentNotice: true },
      select: { id: true },
      orderBy: { updatedAt: "asc" },
      take: MAX_NEWS,
    });
    if (flagged.length === 0) {
      remember(key, stamp);
      return [];
    }
    const news: GatewayOutcome[] = [];
    for (const { id } of flagged) {
      const taken = await db.action.updateMany({
        where: { id, tenantId: ctx.tenantId, agentNotice: true },
        data: { agentNotice: false },
      });
      if (taken.count === 1 && id !== about) news.push(await getContext(ctx, { action_id: id }));
    }
    return news;
  };
}
