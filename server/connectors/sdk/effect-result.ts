import type { EffectResult } from "./define-capability";
import type { HttpAnswer } from "./http-client";

/**
 * Maps a system's answer to the effect ledger's vocabulary. `confirm` decides whether a 200 really
 * changed something (a body that shows nothing changed is `not_applied`, never `applied`).
 */
export async function toEffectResult(
  res: HttpAnswer,
  confirm: (
    body: unknown,
  ) => Promise<
    { applied: true; externalId?: string; entityId?: string } | { applied: false; message: string }
  >,
): Promise<EffectResult> {
  switch (res.kind) {
    case "ok": {
      let check: Awaited<ReturnType<typeof confirm>>;
      try {
        check = await confirm(res.body);
      } catch (err) {
        // The write was sent and answered: whatever breaks while checking that answer (a read-back
        // that stays down, a rejected read, a bug) says nothing about whether it happened. Never
        // `unavailable` ("nothing was sent"), which the ledger records as failed and re-sends.
        return {
          status: "unknown",
          message: `the write was sent and answered ${res.status}, but its result could not be confirmed (${(err as Error)?.message ?? String(err)}); verify_action will settle it`,
        };
      }
      return check.applied
        ? { status: "applied", externalId: check.externalId, entityId: check.entityId, response: res.body }
        : { status: "not_applied", message: check.message };
    }
    case "error":
      return { status: "rejected", code: res.code, message: res.message };
    case "unavailable":
      return { status: "unavailable", message: res.message };
    case "timeout":
    case "dropped":
      return { status: "unknown", message: res.message };
  }
}
