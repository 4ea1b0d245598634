import type { EffectResult } from "../engine/define-capability";
import type { LegacyResponse } from "./legacy-client";

/**
 * Maps a legacy answer to the effect ledger's vocabulary. `confirm` decides whether a 200 really
 * changed something (a body that shows nothing changed is `not_applied`, never `applied`).
 */
export async function toEffectResult(
  res: LegacyResponse,
  confirm: (
    body: unknown,
  ) => Promise<
    { applied: true; externalId?: string; entityId?: string } | { applied: false; message: string }
  >,
): Promise<EffectResult> {
  switch (res.kind) {
    case "ok": {
      const check = await confirm(res.body);
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
