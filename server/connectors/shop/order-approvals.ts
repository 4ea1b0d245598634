import type { NextAction } from "../sdk/outcome";
import { afterSales } from "./capabilities/after-sales";
import { cancelUnpaidOrder } from "./capabilities/cancel-unpaid-order";
import { changeDeliveryAddress } from "./capabilities/change-delivery-address";
import { payOrder } from "./capabilities/pay-order";

/** The order's changes, by whether a person approves them (their policies say). */
const CHANGES = [afterSales, payOrder, changeDeliveryAddress, cancelUnpaidOrder];

/**
 * Which of the changes the order offers now wait for the person's approval and which run at once,
 * in one line. Issue 23 (played): "requires approval: true" beside an address change that needs
 * none read as if every form on the page did.
 */
export function orderApprovals(next: readonly NextAction[]): string | null {
  const offered = new Set(next.map((n) => n.args?.capability));
  const asked = CHANGES.filter((c) => offered.has(c.id) && c.policy.approval !== "never").map((c) => c.id);
  const atOnce = CHANGES.filter((c) => offered.has(c.id) && c.policy.approval === "never").map((c) => c.id);
  const parts = [
    ...(asked.length
      ? [`${asked.join(", ")} ${asked.length > 1 ? "need" : "needs"} the user's approval`]
      : []),
    ...(atOnce.length ? [`${atOnce.join(", ")} ${atOnce.length > 1 ? "run" : "runs"} at once`] : []),
  ];
  return parts.length ? parts.join("; ") : null;
}
