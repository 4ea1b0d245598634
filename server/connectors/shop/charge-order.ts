import type { EffectResult, Verification } from "../sdk/define-capability";
import { toEffectResult } from "../sdk/effect-result";
import { sendWithRetries } from "../sdk/http-client";
import type { ShopAdapter, ShopPayment } from "./shop-adapter";

/**
 * Pays an order in full (POST /v1/payments) with the action key as `reference`, so it can be
 * found again; the Idempotency-Key makes a resend replay the first answer, never a second charge.
 * Applied only when the order itself reads back paid: a 200 is not proof.
 */
export async function chargeOrder(
  adapter: ShopAdapter,
  charge: {
    orderId: string;
    paymentMethodId: string;
    amount: number;
    actionKey: string;
    idempotencyKey: string;
  },
  budget: { attempts: number; timeoutMs: number },
): Promise<EffectResult> {
  const res = await sendWithRetries(
    adapter.http,
    {
      method: "POST",
      path: "/v1/payments",
      idempotencyKey: charge.idempotencyKey,
      body: {
        order_id: charge.orderId,
        payment_method_id: charge.paymentMethodId,
        amount: charge.amount,
        reference: charge.actionKey,
      },
    },
    budget,
  );
  return toEffectResult(res, async (body) => {
    const payment = body as ShopPayment;
    const after = await adapter.order(charge.orderId);
    if (payment?.status === "succeeded" && payment.order_id === charge.orderId && after?.status === "paid")
      return { applied: true, externalId: payment.id, entityId: charge.orderId };
    return {
      applied: false,
      message: `payment answered 200 but order ${charge.orderId} is ${after?.status ?? "unknown"}`,
    };
  });
}

/** The succeeded payment carrying this action key as its reference, as a verification; null when none. */
export async function paymentByReference(
  adapter: ShopAdapter,
  actionKey: string,
): Promise<Extract<Verification, { happened: true }> | null> {
  const payments = await adapter.paymentsByReference(actionKey);
  const paid = payments.find((p) => p.status === "succeeded");
  if (!paid) return null;
  return {
    happened: true,
    externalId: paid.id,
    entityId: paid.order_id,
    details: {
      status: "paid",
      amount: paid.amount,
      payment_id: paid.id,
      order_id: paid.order_id,
      payments: payments.length,
    },
  };
}
