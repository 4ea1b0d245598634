import { z } from "zod";
import { toEffectResult } from "../../effect-result";
import { sendWithRetries } from "../../legacy-client";
import { defineCapability } from "../../sdk/define-capability";
import type { Alternative, ValidationError } from "../../sdk/outcome";
import {
  AFTER_SALES_KINDS,
  type AfterSalesKind,
  type AfterSalesPath,
  afterSalesPaths,
  KIND_LABELS,
} from "../after-sales-eligibility";
import { orderNode } from "../order-node";
import type { ShopAdapter, ShopOrder } from "../shop-adapter";
import { SHOP_POLICY } from "../shop-policy";

// Deterministic rule for "evidence where needed": claims of damage or defects need something to show.
const NEEDS_EVIDENCE =
  /damag|broken|break|defect|faulty|crack|scratch|torn|stain|wrong item|坏|破|损|瑕疵|裂|错/i;

function refundableOf(order: ShopOrder): number {
  const refunded = order.refunds?.reduce((s, r) => s + r.amount, 0) ?? 0;
  return Math.max(0, order.total - refunded);
}

/** What a return refunds: the lines less their share of the order discount, capped at what is left (the shop's rule). */
function returnRefundAmount(order: ShopOrder, lines: number): number {
  const discountShare = order.subtotal > 0 ? Math.round((order.discount * lines) / order.subtotal) : 0;
  return Math.min(lines - discountShare, refundableOf(order));
}

export const afterSales = defineCapability<ShopAdapter>({
  id: "after_sales",
  connector: "shop",
  title: "After-sales request",
  description:
    "One entry point for an order's after-sales intent: decides from the order's state whether refund-only (not shipped), return-and-refund or exchange (delivered), or a shipping-difference refund applies, explains why the others do not, and asks for evidence where needed.",
  trigger: {
    use: "The user wants money back, to return or exchange items, or complains about an order they received or paid for (refund, return, exchange, shipping overcharge).",
    avoid: "Not for cancelling an unpaid order, changing the delivery address or tracking a parcel.",
  },
  synonyms: [
    "refund",
    "money back",
    "return",
    "send back",
    "exchange",
    "swap",
    "replace",
    "wrong size",
    "damaged",
    "broken",
    "defective",
    "complaint",
    "after sales",
    "退款",
    "退货",
    "退货退款",
    "仅退款",
    "换货",
    "售后",
    "退钱",
    "退运费",
    "运费差价",
    "质量问题",
    "坏了",
    "破损",
  ],
  appliesTo: { entity: "Order", field: "order_id" },
  prerequisites: ["an order of the user that was paid"],
  sideEffects: [
    "refunds money to the original payment method",
    "may create a return or an exchange shipment",
  ],
  policy: {
    effect: "write",
    permission: "shop.order.refund",
    approval: "always",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    orderNode("The order; its state decides which after-sales paths apply", undefined, (order) => {
      const eligible = afterSalesPaths(order).filter((p) => p.eligible);
      return eligible.length ? eligible.map((p) => p.kind).join(", ") : "nothing now";
    }),
    {
      id: "PATH",
      description: "Which after-sales path: only the eligible ones can be chosen",
      fields: {
        kind: z
          .enum(AFTER_SALES_KINDS)
          .describe("refund_only | return_refund | exchange | shipping_refund; see options.after_sales"),
      },
      async resolve({ values, derived }) {
        const order = derived.order as ShopOrder;
        const paths = afterSalesPaths(order);
        const eligible = paths.filter((p) => p.eligible);
        const options = { after_sales: paths };
        const kind = values.kind as AfterSalesKind | undefined;
        if (!eligible.length && !kind)
          return {
            options,
            errors: [
              {
                field: "order_id",
                code: "no_after_sales_available",
                message: `Nothing applies to this order now: ${paths.map((p) => p.message).join("; ")}`,
                refused: true,
                alternatives: alternativesFor(order),
              },
            ],
          };
        if (!kind)
          return eligible.length === 1 ? { options, defaults: { kind: eligible[0]?.kind } } : { options };
        const path = paths.find((p) => p.kind === kind) as AfterSalesPath;
        if (!path.eligible)
          return {
            options,
            errors: [
              {
                field: "kind",
                code: path.reason ?? "not_eligible",
                message: `${path.message}${eligible.length ? `. Possible now: ${eligible.map((p) => p.kind).join(", ")}` : ""}`,
                // With another path open the agent can still choose it; with none, it is a refusal.
                ...(eligible.length ? {} : { refused: true, alternatives: alternativesFor(order) }),
              },
            ],
          };
        return { options };
      },
    },
    {
      id: "DETAILS",
      description: "The reason, and what the chosen path needs (items, evidence, replacement, amount)",
      dependsOn: ["order_id", "kind"],
      fields: {
        reason: z.string().trim().min(3).max(500).describe("Why, in the user's words"),
        item_ids: z
          .array(z.string().trim().min(1).max(64))
          .min(1)
          .max(20)
          .optional()
          .describe("return_refund: order item ids to return (default: all)"),
        evidence: z
          .array(z.string().trim().min(1).max(500))
          .max(10)
          .optional()
          .describe("Photo URLs or descriptions; required when claiming damage or defects"),
        item_id: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .optional()
          .describe("exchange: the order item id to exchange"),
        replacement_product_id: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .optional()
          .describe("exchange: one of options.replacements"),
        amount: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("refund_only / shipping_refund: cents to refund (default: the full refundable amount)"),
      },
      async resolve({ adapter, values, derived }) {
        const order = derived.order as ShopOrder;
        const kind = values.kind as AfterSalesKind;
        const errors: ValidationError[] = [];
        const required = ["reason"];
        const options: Record<string, unknown> = {};
        const reason = (values.reason as string | undefined) ?? "";
        if (kind === "refund_only" || kind === "shipping_refund") {
          const max = kind === "refund_only" ? refundableOf(order) : order.shipping_difference;
          const amount = (values.amount as number | undefined) ?? max;
          if (amount > max)
            errors.push({
              field: "amount",
              code: "amount_too_high",
              message: `At most ${max} can be refunded`,
            });
          return {
            errors,
            required,
            options: { max_refund: max },
            derived: { refund_amount: amount },
            defaults: { amount },
          };
        }
        if (kind === "return_refund") {
          const ids = (values.item_ids as string[] | undefined) ?? order.items.map((i) => i.id);
          const items = order.items.filter((i) => ids.includes(i.id));
          for (const id of ids)
            if (!order.items.some((i) => i.id === id))
              errors.push({
                field: "item_ids",
                code: "unknown_item",
                message: `${id} is not an item of ${order.id}; items: ${order.items.map((i) => i.id).join(", ")}`,
              });
          if (NEEDS_EVIDENCE.test(reason)) required.push("evidence");
          return {
            errors,
            required,
            defaults: { item_ids: ids },
            derived: {
              refund_amount: returnRefundAmount(
                order,
                items.reduce((s, i) => s + i.unit_price * i.quantity, 0),
              ),
              return_items: items.map((i) => ({ id: i.id, name: i.name, quantity: i.quantity })),
            },
          };
        }
        // exchange
        const exchangeable = order.items.filter((i) => i.exchangeable);
        const itemId =
          (values.item_id as string | undefined) ??
          (exchangeable.length === 1 ? exchangeable[0]?.id : undefined);
        const item = order.items.find((i) => i.id === itemId);
        required.push("item_id", "replacement_product_id");
        if (NEEDS_EVIDENCE.test(reason)) required.push("evidence");
        if (itemId && !item)
          errors.push({
            field: "item_id",
            code: "unknown_item",
            message: `${itemId} is not an item of ${order.id}`,
          });
        else if (item && !item.exchangeable)
          errors.push({
            field: "item_id",
            code: "item_not_exchangeable",
            message: `${item.name} cannot be exchanged`,
          });
        if (item?.exchangeable) {
          const catalog = await adapter.products({ per_page: 100 });
          const replacements = catalog.data.filter(
            (p) => p.price === item.unit_price && p.id !== item.product_id && p.exchangeable,
          );
          options.replacements = replacements.map((p) => ({
            product_id: p.id,
            name: p.name,
            in_stock: p.stock > 0,
          }));
          const wanted = values.replacement_product_id as string | undefined;
          if (wanted) {
            const r = replacements.find((p) => p.id === wanted);
            if (!r)
              errors.push({
                field: "replacement_product_id",
                code: "not_a_replacement",
                message: `${wanted} is not a same-price replacement; see options.replacements`,
              });
            else if (r.stock <= 0)
              errors.push({
                field: "replacement_product_id",
                code: "out_of_stock",
                message: `${r.name} is out of stock`,
              });
            else options.replacement = { product_id: r.id, name: r.name };
          }
        }
        return {
          errors,
          required,
          options,
          defaults: itemId ? { item_id: itemId } : {},
          derived: { exchange_item: item ? { id: item.id, name: item.name } : null },
        };
      },
    },
    { id: "CONFIRM_REQUEST", description: "Submit the after-sales request", requiresConfirmation: true },
  ],
  summarize: ({ values, derived }) => {
    const order = derived.order as ShopOrder;
    const kind = values.kind as AfterSalesKind;
    // Refunds go back the way the order was paid (the legacy system credits the balance itself).
    const refundTo =
      order.payment?.method === "balance" ? "Store credit" : "the card the order was paid with";
    const base = {
      title: KIND_LABELS[kind],
      order_id: order.id,
      kind: { value: kind, label: KIND_LABELS[kind] },
      reason: values.reason,
      evidence: ((values.evidence as string[] | undefined) ?? []).length,
      currency: "USD",
    };
    if (kind === "exchange") {
      const item = derived.exchange_item as { name?: string } | null;
      return {
        ...base,
        decision: { verb: "Exchange", object: item?.name ?? "the item" },
        item: derived.exchange_item,
        replacement_product_id: values.replacement_product_id,
        amount: 0,
      };
    }
    const refund = {
      decision: { verb: "Refund", amount: derived.refund_amount as number, currency: "USD", to: refundTo },
      amount_label: "Refund amount",
      refund_to: refundTo,
    };
    if (kind === "return_refund")
      return { ...base, ...refund, items: derived.return_items, amount: derived.refund_amount };
    return { ...base, ...refund, amount: derived.refund_amount };
  },
  effect: {
    kind: "shop.refund",
    description: "Submit the after-sales request (refund, return or exchange)",
    async execute({ adapter, values, derived, actionKey, timeoutMs, attempts }) {
      const order = derived.order as ShopOrder;
      const kind = values.kind as AfterSalesKind;
      const reason = values.reason as string;
      const path = `/v1/orders/${encodeURIComponent(order.id)}`;
      const req =
        kind === "refund_only"
          ? { path: `${path}/refunds`, body: { amount: values.amount, reason, reference: actionKey } }
          : kind === "shipping_refund"
            ? {
                path: `${path}/shipping-refunds`,
                body: { amount: values.amount, reason, reference: actionKey },
              }
            : kind === "return_refund"
              ? {
                  path: `${path}/returns`,
                  body: {
                    item_ids: values.item_ids,
                    reason,
                    evidence: values.evidence ?? [],
                    reference: actionKey,
                  },
                }
              : {
                  path: `${path}/exchanges`,
                  body: {
                    item_id: values.item_id,
                    replacement_product_id: values.replacement_product_id,
                    reason,
                    reference: actionKey,
                  },
                };
      const res = await sendWithRetries(
        adapter.http,
        { method: "POST", idempotencyKey: actionKey, ...req },
        { attempts, timeoutMs },
      );
      return toEffectResult(res, async (body) => {
        // The record must exist under our reference; a 200 that created nothing is not applied.
        const found = await adapter.refundsByReference(actionKey);
        const id = found[0]?.id ?? (body as { id?: string })?.id;
        return found.length
          ? { applied: true, externalId: id }
          : { applied: false, message: "no refund, return or exchange was recorded" };
      });
    },
    async verify({ adapter, actionKey }) {
      const found = await adapter.refundsByReference(actionKey);
      const r = found[0];
      if (r)
        return {
          happened: true,
          externalId: r.id,
          details: {
            status: r.status,
            kind: r.kind,
            amount: r.amount,
            id: r.id,
            order_id: r.order_id,
            records: found.length,
          },
        };
      return { happened: false, details: { status: "not_found" } };
    },
  },
});

/** What serves the user while no after-sales path applies: follow the parcel until it arrives. */
function alternativesFor(order: ShopOrder): Alternative[] {
  return order.shipment && order.status === "shipped"
    ? [
        {
          capability: "track_shipment",
          entity_id: order.id,
          description: "Track the parcel; a return and refund is possible once it is delivered",
        },
      ]
    : [];
}
