import { escapeText } from "./markdown";

/** Keys a yes/no answer carries beside its flag: why not, in a code and in words. */
const VERDICT_KEYS = new Set(["eligible", "reason", "message"]);

/**
 * A yes/no answer (`{eligible, reason?, message?}`, as views say what may be done) in its few
 * words: "yes", "no — Order … is already paid", "no — order_already_shipped". The page said
 * "eligible: false · reason: order_already_paid · message: Order … is already paid" on every
 * such line (issue 23): the code restates the message, and the labels cost more than the facts.
 * The reason's code is kept where no message says it in words. Null for any other object.
 */
export function verdictText(value: unknown): string | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if (typeof o.eligible !== "boolean" || !Object.keys(o).every((k) => VERDICT_KEYS.has(k))) return null;
  const why = [o.message, o.reason].find((v) => typeof v === "string" && v !== "");
  return `${o.eligible ? "yes" : "no"}${why ? ` — ${escapeText(why)}` : ""}`;
}
