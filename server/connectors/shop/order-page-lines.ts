import type { BackendOutcome, Row } from "../sdk/browse-backend";
import { money } from "../sdk/markdown";
import { shopAddressLine } from "./match-address";

/**
 * The order page's address and payment, each on one line a person reads ("Office: 1 Market
 * Street, 12345 Springfield, US · addr_alice_office", "card, Visa •••• 4242 · succeeded ·
 * $316.00 · pay_paid"): labelled parts ("id: … · label: … · line1: … · postal code: …") cost an
 * order page ~25 tokens that said nothing more, on every order a search opened (set BW: 480–690
 * tokens an order). The view keeps its shape for structured readers.
 */
export function withAddressAndPaymentLines(view: BackendOutcome): BackendOutcome {
  const order = view.view as Row | undefined;
  if (!order) return view;
  const address = order.address as Row | null | undefined;
  const payment = order.payment as Row | null | undefined;
  const lines: Row = {};
  if (address && typeof address.label === "string" && typeof address.id === "string")
    lines.address = `${shopAddressLine(address as Parameters<typeof shopAddressLine>[0])} · ${address.id}`;
  if (payment && typeof payment.id === "string") {
    const how = [payment.method, payment.paid_with].filter((p) => typeof p === "string" && p).join(", ");
    const amount = typeof payment.amount === "number" ? money(payment.amount) : "";
    const said = [how, payment.status, amount].filter((p) => typeof p === "string" && p).join(" · ");
    lines.payment = `${said} · ${payment.id}`;
  }
  return Object.keys(lines).length ? { ...view, view: { ...order, ...lines } } : view;
}
