import type { GatewayOutcome } from "../gateway-pipeline";
import { resolveRecoveryItem } from "../recovery-queue";
import type { TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { resolveRecoveryInputSchema } from "./operation-schemas";

/** Support resolves an action in the recovery queue, audited `action.recovery_resolved`. */
export function resolveRecoveryOperation({ db, parseAudited, audited }: GatewayDeps) {
  async function resolveRecovery(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "action.recovery_resolved", resolveRecoveryInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    return audited(ctx, "action.recovery_resolved", parsed.input, `action:${parsed.input.action_id}`, () =>
      resolveRecoveryItem(db, ctx, parsed.input),
    );
  }

  return resolveRecovery;
}
