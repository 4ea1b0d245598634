import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { sameRequestMessage } from "../../engine/server-made-key";
import type { TrustedContext } from "../trusted-context";

type Outcome = OutcomeBase & Record<string, unknown>;

/**
 * Confirms under the server's key. The engine made it exactly where the agent's key would run
 * the change now (or for a resend of a request whose change has not settled): the confirm runs
 * it once, or finds the same request's run (in flight or done) and answers with it, said so.
 */
export async function confirmOnServerKey(
  confirm: (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>,
  ctx: TrustedContext | null,
  out: Outcome,
  key: string,
): Promise<Outcome> {
  const done = await confirm(ctx, {
    action_id: out.action_id,
    version: out.version,
    idempotency_key: key,
  });
  const first = out.same_request as { action_id: string; at: string } | undefined;
  if (!first) return done;
  if (done.reason !== "idempotent_replay") return { ...done, same_request: first };
  return {
    ...done,
    reason: "same_request",
    message: sameRequestMessage({
      ...first,
      status: typeof done.status === "string" ? done.status : undefined,
      effect: done.effect as { status: string; external_id: string | null } | null,
    }),
    same_request: first,
  };
}
