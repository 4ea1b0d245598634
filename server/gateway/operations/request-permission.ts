import type { GatewayOutcome } from "../gateway-pipeline";
import { askedRequest, permissionAskMessage, storePermissionRequest } from "../permission-requests";
import type { TrustedContext } from "../trusted-context";
import { targetOfTitle } from "./capability-by-name";
import type { GatewayDeps } from "./gateway-deps";
import { requestPermissionInputSchema } from "./operation-schemas";

/** request_permission: an agent asks an admin for a route permission it lacks. */
export function requestPermissionOperation({ db, capabilities, parseAudited, audited }: GatewayDeps) {
  async function requestPermission(ctx: TrustedContext, raw: unknown): Promise<GatewayOutcome> {
    const parsed = await parseAudited(ctx, "permission.requested", requestPermissionInputSchema, raw);
    if (!parsed.ok) return parsed.out;
    // A capability named by the title a page showed is asked for by its id, as start_action takes it.
    const input = { ...parsed.input, target: targetOfTitle(parsed.input.target, capabilities) };
    return audited(ctx, "permission.requested", parsed.input, input.target, async () => {
      const ask = await storePermissionRequest(db, ctx, input);
      const request = askedRequest(ask);
      if (request && ask.kind !== "denied")
        return {
          outcome: "applied",
          message: permissionAskMessage(ask),
          retryable: false,
          permission_request: { id: request.id, status: request.status, target: request.target },
          next_actions: [],
        };
      return {
        outcome: "rejected",
        reason:
          ask.kind === "denied"
            ? "permission_denied"
            : ask.kind === "limited"
              ? "permission_request_limit"
              : ask.kind === "not_stored" && ask.why === "invalid_target"
                ? "invalid_arguments"
                : "agent_required",
        message:
          ask.kind === "not_stored" && ask.why === "not_an_agent"
            ? "Only agents request permissions; people ask an admin"
            : permissionAskMessage(ask),
        retryable: ask.kind === "limited",
        permission_request: request ? { id: request.id, status: request.status } : null,
        next_actions: [],
      };
    });
  }

  return requestPermission;
}
