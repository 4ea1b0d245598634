import type { GatewayOutcome } from "../gateway-pipeline";
import { decidePermissionRequest, decidePermissionRequestInputSchema } from "../permission-requests";
import type { TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";

/** An admin grants or denies an agent's permission request, audited `permission.granted|denied`. */
export function decidePermissionOperation({ db, parseAudited, audited }: GatewayDeps) {
  async function decidePermission(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "permission.decided", decidePermissionRequestInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    const input = parsed.input;
    return audited(
      ctx,
      input.decision === "grant" ? "permission.granted" : "permission.denied",
      input,
      `permission_request:${input.request_id}`,
      async () => {
        const r = await decidePermissionRequest(db, ctx, input);
        return r.ok
          ? {
              outcome: "applied",
              message: `Request ${r.status}`,
              retryable: false,
              status: r.status,
              rule_id: r.ruleId,
              next_actions: [],
            }
          : {
              outcome: r.reason === "not_found" ? "not_found" : "rejected",
              reason: r.reason,
              message: r.message,
              retryable: false,
              next_actions: [],
            };
      },
    );
  }

  return decidePermission;
}
