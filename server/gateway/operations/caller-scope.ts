import type { AnyCapability } from "../../connectors/sdk/define-capability";
import type { TrustedContext } from "../trusted-context";

/** Admins and support see every action of their tenant; everyone else only their own. */
export const scopeOf = (ctx: TrustedContext) =>
  ctx.kind === "person" && (ctx.role === "admin" || ctx.role === "support") ? "tenant" : "own";

/** A capability is offered to the roles its policy names. */
export const visible = (ctx: TrustedContext, c: AnyCapability) => c.policy.roles.includes(ctx.role);
