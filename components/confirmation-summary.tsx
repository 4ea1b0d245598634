import type { ReactNode } from "react";

/**
 * The confirmation screen's summary: what will happen if the person approves. A pure render
 * function (no hooks, no browser APIs) so the console's server-rendered /confirm page and the
 * MCP Apps resource (via react-dom/server's renderToStaticMarkup) show the very same thing.
 * It uses Tailwind classes and also plain `data-field` attributes the MCP App can style inline.
 */
export type ConfirmationSummaryProps = {
  capability: string;
  actionId: string;
  version: number;
  summary: unknown;
  /** The approval's status, when known: pending | approved | rejected | voided. */
  status?: string;
};

const CAPABILITY_TITLES: Record<string, string> = {
  checkout: "Place the order and pay",
  after_sales: "After-sales request",
  change_delivery_address: "Change the delivery address",
  assign_ticket: "Assign the ticket",
  change_ticket_priority: "Change the ticket's priority",
  resolve_ticket: "Resolve the ticket",
  reopen_ticket: "Reopen the ticket",
};

export function capabilityTitle(capability: string): string {
  return CAPABILITY_TITLES[capability] ?? capability.replaceAll("_", " ");
}

/** Money in the legacy system is integer cents. */
export function formatMoney(cents: unknown, currency: unknown = "USD"): string {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return String(cents);
  const code = typeof currency === "string" && /^[A-Z]{3}$/.test(currency) ? currency : "USD";
  return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(cents / 100);
}

const MONEY_KEYS =
  /(^|_)(amount|total|subtotal|price|discount|shipping_price|refund_amount|unit_price|balance)$/;
const LABELS: Record<string, string> = {
  amount: "Amount",
  total: "Total",
  subtotal: "Subtotal",
  discount: "Discount",
  shipping_price: "Shipping",
  address: "Ship to",
  payment_method: "Pay with",
  payment_type: "Payment type",
  shipping_method: "Shipping method",
  coupon: "Coupon",
  reason: "Reason",
  kind: "Kind",
  order_id: "Order",
  ticket_id: "Ticket",
  assignee: "Assignee",
  team: "Team",
  cross_team: "Across teams",
  priority: "Priority",
  resolution: "Resolution",
};

function label(key: string): string {
  return LABELS[key] ?? key.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

function renderValue(key: string, value: unknown, currency: unknown): ReactNode {
  if (value === null || value === undefined || value === "")
    return <span className="text-slate-400">none</span>;
  if (typeof value === "number" && MONEY_KEYS.test(key)) return formatMoney(value, currency);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return value.join(", ");
    return (
      <ul className="space-y-0.5">
        {value.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static list rendered once
          <li key={i}>{renderValue(key, v, currency)}</li>
        ))}
      </ul>
    );
  }
  const obj = value as Record<string, unknown>;
  // Common shapes first: an address, a payment method, a person.
  if (typeof obj.line1 === "string" || typeof obj.city === "string") {
    return [obj.label, obj.line1, obj.city, obj.postal_code, obj.country].filter(Boolean).join(", ");
  }
  if (typeof obj.label === "string") return obj.label;
  if (typeof obj.name === "string" && Object.keys(obj).length <= 4)
    return [obj.name, obj.team ?? obj.email].filter(Boolean).join(" · ");
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3">
      {Object.entries(obj).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{label(k)}</dt>
          <dd>{renderValue(k, v, currency)}</dd>
        </div>
      ))}
    </dl>
  );
}

type Item = { name?: unknown; product_id?: unknown; quantity?: unknown; unit_price?: unknown };

function ItemsTable({ items, currency }: { items: Item[]; currency: unknown }) {
  return (
    <table className="w-full text-sm" data-field="items">
      <thead>
        <tr className="text-left text-xs text-slate-500">
          <th className="py-1 font-medium">Item</th>
          <th className="py-1 text-right font-medium">Qty</th>
          <th className="py-1 text-right font-medium">Price</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items have no stable id in a summary
          <tr key={i} className="border-t border-slate-100">
            <td className="py-1">{String(item.name ?? item.product_id ?? "item")}</td>
            <td className="py-1 text-right">{String(item.quantity ?? 1)}</td>
            <td className="py-1 text-right">
              {item.unit_price === undefined ? "" : formatMoney(item.unit_price, currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ConfirmationSummary({
  capability,
  actionId,
  version,
  summary,
  status,
}: ConfirmationSummaryProps) {
  const data =
    summary && typeof summary === "object" && !Array.isArray(summary)
      ? (summary as Record<string, unknown>)
      : { value: summary };
  const currency = data.currency;
  const headline = typeof data.title === "string" ? data.title : capabilityTitle(capability);
  const amountKey = ["total", "amount", "refund_amount"].find((k) => typeof data[k] === "number");
  const items = Array.isArray(data.items) ? (data.items as Item[]) : null;
  const rest = Object.entries(data).filter(
    ([k]) => !["title", "currency", "items", amountKey].includes(k) && !k.startsWith("_"),
  );
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="confirmation-summary"
      data-action-id={actionId}
      data-version={version}
      aria-labelledby={`summary-${actionId}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`summary-${actionId}`} className="text-lg font-semibold" data-field="title">
          {headline}
        </h2>
        <span className="text-xs text-slate-500" data-field="version">
          version {version}
          {status ? ` · ${status}` : ""}
        </span>
      </div>
      {amountKey ? (
        <p className="mt-2 text-3xl font-semibold tabular-nums" data-field="amount">
          {formatMoney(data[amountKey], currency)}
        </p>
      ) : null}
      {items && items.length > 0 ? (
        <div className="mt-4">
          <ItemsTable items={items} currency={currency} />
        </div>
      ) : null}
      {rest.length > 0 ? (
        <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm" data-field="details">
          {rest.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{label(k)}</dt>
              <dd className="text-slate-900">{renderValue(k, v, currency)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="mt-4 text-xs text-slate-500">
        Action <code>{actionId}</code>
      </p>
    </section>
  );
}
