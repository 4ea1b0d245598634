import { getDb } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { createGateway, type Gateway } from "../create-gateway";
import { personContext, type TrustedContext } from "../trusted-context";
import { type ConsoleErrorCode, type ConsoleResult, fail, ok } from "./console-result";

// One gateway per process, kept on globalThis so Next.js dev reloads reuse it.
const holder = globalThis as typeof globalThis & { __signpostConsoleGateway?: Gateway };

/** The gateway the console calls for everything that is a gateway operation (approvals, recovery, grants). */
export function getConsoleGateway(): Gateway {
  holder.__signpostConsoleGateway ??= createGateway({ db: getDb() });
  return holder.__signpostConsoleGateway;
}

/** The person's trusted context as the gateway wants it: from the session, face `console`. */
export function consolePerson(ctx: ConsoleContext): TrustedContext {
  return personContext(ctx, "console");
}

// Refusals that mean "your role may not do this" rather than "this request is wrong".
const FORBIDDEN_REASONS = new Set([
  "person_required",
  "not_your_approval",
  "admin_required",
  "support_required",
  "permission_denied",
]);

/** Maps a gateway outcome to the console's typed result: failures carry the whole outcome as details. */
export function fromGatewayOutcome<T extends { outcome: string; message?: string; reason?: string }>(
  out: T,
): ConsoleResult<T> {
  if (out.outcome === "applied" || out.outcome === "preview" || out.outcome === "unknown") return ok(out);
  const code: ConsoleErrorCode =
    out.outcome === "not_found"
      ? "not_found"
      : out.outcome === "conflict"
        ? "conflict"
        : out.outcome === "temporarily_unavailable"
          ? "temporarily_unavailable"
          : out.reason === "invalid_arguments"
            ? "invalid_request"
            : out.reason && FORBIDDEN_REASONS.has(out.reason)
              ? "forbidden"
              : "rejected";
  return fail(code, out.message ?? out.outcome, out);
}
