import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { toEffectResult } from "../../sdk/effect-result";
import { sendWithRetries } from "../../sdk/http-client";
import type { ValidationError } from "../../sdk/outcome";
import { addressIdSchema, matchAddress } from "../match-address";
import { orderNode } from "../order-node";
import type { ShopAdapter, ShopAddress, ShopOrder } from "../shop-adapter";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";

/** Why an order's delivery address can no longer change (none while it has not shipped). */
function addressRefusals(order: ShopOrder): ValidationError[] {
  if (order.status === "pending_payment" || order.status === "paid") return [];
  return [
    {
      field: "order_id",
      code: order.status === "cancelled" ? "order_cancelled" : "order_already_shipped",
      message:
        order.status === "cancelled"
          ? "The order is cancelled"
          : `The order has already ${order.status === "delivered" ? "been delivered" : "shipped"}; its delivery address can no longer change`,
    },
  ];
}

export const changeDeliveryAddress = defineCapability<ShopAdapter>({
  id: "change_delivery_address",
  connector: "shop",
  title: "Change delivery address",
  description: "Send an order that has not shipped yet to another of the customer's addresses.",
  trigger: {
    use: "The user wants an order delivered to a different address (moved, wrong address, ship to the office instead).",
    avoid:
      "Not once the order has shipped (then it cannot be redirected); not for adding an address to the account.",
  },
  synonyms: [
    "change address",
    "delivery address",
    "ship to",
    "wrong address",
    "redirect",
    // Sent or delivered to another address: "send my order to my home instead" (set K).
    "send to",
    "deliver to",
    "deliver elsewhere",
    "改地址",
    "修改地址",
    "收货地址",
    "地址错了",
    "送到",
  ],
  appliesTo: { entity: "Order", field: "order_id" },
  prerequisites: ["an order that has not shipped yet", "the new address saved on the account"],
  sideEffects: ["changes where the order will be delivered"],
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.order.update",
    approval: "never",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    orderNode(
      "The order; only orders not yet shipped can change address",
      addressRefusals,
      (order, values) => {
        const why = addressRefusals(order)[0];
        if (why) return why.message.split(";")[0] as string;
        // The address already asked for (by id or label): the change would change nothing.
        const wanted = typeof values.address_id === "string" ? values.address_id.trim().toLowerCase() : "";
        const now = order.address;
        return now && wanted && (now.id.toLowerCase() === wanted || now.label.toLowerCase() === wanted)
          ? `already addressed to ${now.label}`
          : "yes";
      },
    ),
    {
      id: "ADDRESS",
      description: "The new delivery address",
      fields: {
        address_id: addressIdSchema,
      },
      async resolve({ adapter, values, derived }) {
        const order = derived.order as ShopOrder;
        const addresses = await adapter.addresses(order.customer_id);
        const options = {
          addresses: addresses.map((a) => ({
            id: a.id,
            label: a.label,
            line1: a.line1,
            city: a.city,
            current: a.id === order.address?.id,
          })),
        };
        const wanted = values.address_id as string | undefined;
        if (!wanted) return { options };
        const address = matchAddress(addresses, wanted);
        if (!address)
          return {
            options,
            errors: [
              {
                field: "address_id",
                code: "unknown_address",
                message: `No address "${wanted}" on this account`,
              },
            ],
          };
        if (address.id === order.address?.id)
          return {
            options,
            errors: [
              {
                field: "address_id",
                code: "same_address",
                message: `The order already goes to ${address.label}`,
                already: true,
              },
            ],
          };
        return { options, derived: { address } };
      },
    },
    { id: "CONFIRM_CHANGE", description: "Change the delivery address", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const order = derived.order as ShopOrder;
    const address = derived.address as ShopAddress;
    return withShown(
      {
        order_id: order.id,
        from: order.address ? `${order.address.label}: ${order.address.line1}, ${order.address.city}` : null,
        to: `${address.label}: ${address.line1}, ${address.city}`,
        address_id: address.id,
        order_updated_at: order.updated_at,
      },
      shopSummary("Change the delivery address"),
    );
  },
  effect: {
    kind: "shop.address_change",
    description: "Change the delivery address",
    async execute({ adapter, derived, actionKey, timeoutMs, attempts }) {
      const order = derived.order as ShopOrder;
      const address = derived.address as ShopAddress;
      const res = await sendWithRetries(
        adapter.http,
        {
          method: "PUT",
          path: `/v1/orders/${encodeURIComponent(order.id)}/address`,
          idempotencyKey: actionKey,
          body: { address_id: address.id },
        },
        { attempts, timeoutMs },
      );
      return toEffectResult(res, async () => {
        const after = await adapter.order(order.id);
        return after?.address?.id === address.id
          ? { applied: true, externalId: order.id }
          : {
              applied: false,
              message: `order ${order.id} still goes to ${after?.address?.label ?? "its old address"}`,
            };
      });
    },
    async verify({ adapter, derived }) {
      const order = derived.order as ShopOrder;
      const address = derived.address as ShopAddress;
      const after = await adapter.order(order.id);
      const happened = after?.address?.id === address.id;
      const details = {
        status: happened ? "address_changed" : "unchanged",
        order_id: order.id,
        address_id: after?.address?.id ?? null,
      };
      return happened ? { happened: true, externalId: order.id, details } : { happened: false, details };
    },
  },
});
