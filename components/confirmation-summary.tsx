import type { ReactNode } from "react";
import { decisionSentence, formatMoney } from "@/server/engine/decision-sentence";
import { SUMMARY_CONTEXT_KEY } from "@/server/engine/summary-digest";
import { formatTime } from "./format-time";

export { formatMoney };

/**
 * The confirmation screen's summary: what will happen if the person approves, decision-grade —
 * the sentence ("Pay $55.00 from Store credit"), the total with what it is, line items with
 * line totals, the whole address, the balance before and after, the delivery estimate, who asked
 * and until when. A pure render function (no hooks, no browser APIs) so the console's /confirm
 * page and the MCP Apps resource (via react-dom/server's renderToStaticMarkup) show the very same
 * thing. Tailwind classes for the console, plain `data-field` attributes the MCP App styles.
 */
export type ConfirmationSummaryProps = {
  capability: string;
  actionId: string;
  version: number;
  summary: unknown;
  /** The approval's status, when known: pending | approved | rejected | voided | expired. */
  status?: string;
  /** Who asked, when, for whom and until when (the confirm screen and the MCP App know). */
  request?: {
    agentName?: string | null;
    forName?: string | null;
    requestedAt?: string | null;
    expiresAt?: string | null;
  };
  /** Summary keys the agent changed since the version the person saw before: marked. */
  changed?: readonly string[];
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

const STATUS_LABELS: Record<string, string> = {
  pending: "Waiting for approval",
  approved: "Approved",
  rejected: "Rejected",
  voided: "Replaced by a newer version",
  expired: "Expired",
};
export function approvalStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll("_", " ");
}

const MONEY_KEYS =
  /(^|_)(amount|total|subtotal|price|discount|shipping_price|refund_amount|unit_price|line_total|balance|balance_before|balance_after)$/;
const LABELS: Record<string, string> = {
  amount: "Amount",
  total: "Total",
  subtotal: "Subtotal",
  discount: "Discount",
  shipping_price: "Shipping",
  shipping_method: "Shipping",
  address: "Ship to",
  payment_method: "Pay with",
  delivery_estimate: "Delivery",
  balance_before: "Balance before",
  balance_after: "Balance after",
  refund_to: "Money goes to",
  coupon: "Coupon",
  reason: "Reason",
  kind: "What",
  order_id: "Order",
  ticket_id: "Ticket",
  assignee: "Assignee",
  team: "Team",
  cross_team: "Across teams",
  priority: "Priority",
  resolution: "Resolution",
  evidence: "Photos or files",
  item: "Item",
  replacement_product_id: "Replacement",
};

export function summaryLabel(key: string): string {
  return LABELS[key] ?? key.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** Keys the summary uses for structure, not shown as detail rows. */
const STRUCTURAL = new Set(["title", "decision", "amount_label", "currency", "items", SUMMARY_CONTEXT_KEY]);
const IN_ITEMS_FOOTER = ["subtotal", "shipping_price", "discount"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return Boolean(v) && typeof v === "object" && !Array.isArray(v);
}

/**
 * One value as a person reads it: money formatted, booleans in words, an enum's label
 * (`{value, label}`), an address or a person on one line. Also what the change list compares.
 */
export function displayText(key: string, value: unknown, currency: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "number" && MONEY_KEYS.test(key)) return formatMoney(value, currency);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map((v) => displayText(key, v, currency)).join(", ");
  const obj = value as Record<string, unknown>;
  if (typeof obj.line1 === "string" || typeof obj.city === "string")
    return [obj.label, obj.line1, [obj.postal_code, obj.city].filter(Boolean).join(" "), obj.country]
      .filter(Boolean)
      .join(", ");
  if (typeof obj.label === "string") return obj.label;
  if (typeof obj.name === "string") {
    const qty = typeof obj.quantity === "number" ? ` × ${obj.quantity}` : "";
    return `${obj.name}${qty}${obj.team ? ` · ${obj.team}` : obj.email ? ` · ${obj.email}` : ""}`;
  }
  return Object.entries(obj)
    .map(([k, v]) => `${summaryLabel(k)}: ${displayText(k, v, currency)}`)
    .join("; ");
}

type Item = {
  name?: unknown;
  product_id?: unknown;
  quantity?: unknown;
  unit_price?: unknown;
  line_total?: unknown;
};

function ItemsTable({
  data,
  currency,
  amountLabel,
}: {
  data: Record<string, unknown>;
  currency: unknown;
  amountLabel: string;
}) {
  const items = data.items as Item[];
  const money = (v: unknown) => (typeof v === "number" ? formatMoney(v, currency) : "");
  const footer = IN_ITEMS_FOOTER.filter(
    (k) => typeof data[k] === "number" && !(k === "discount" && data[k] === 0),
  );
  const total =
    typeof data.amount === "number" ? data.amount : typeof data.total === "number" ? data.total : null;
  return (
    <table className="mt-4 w-full text-sm" data-field="items">
      <thead>
        <tr className="text-left text-xs text-slate-600">
          <th scope="col" className="py-1 font-medium">
            Item
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Qty
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Unit price
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Line total
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => {
          const qty = typeof item.quantity === "number" ? item.quantity : 1;
          const line =
            typeof item.line_total === "number"
              ? item.line_total
              : typeof item.unit_price === "number"
                ? item.unit_price * qty
                : undefined;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no stable id in a summary
            <tr key={i} className="border-t border-slate-200">
              <td className="py-1.5 pr-2">{String(item.name ?? item.product_id ?? "item")}</td>
              <td className="py-1.5 text-right tabular-nums">{qty}</td>
              <td className="py-1.5 text-right tabular-nums">{money(item.unit_price)}</td>
              <td className="py-1.5 text-right tabular-nums">{money(line)}</td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        {footer.map((k) => (
          <tr key={k} className="border-t border-slate-200 text-slate-700">
            <th scope="row" colSpan={3} className="py-1 text-right font-normal">
              {k === "discount" && typeof data.coupon === "string"
                ? `Discount (${data.coupon})`
                : k === "shipping_price" &&
                    isRecord(data.shipping_method) &&
                    typeof data.shipping_method.label === "string"
                  ? `Shipping (${data.shipping_method.label})`
                  : summaryLabel(k)}
            </th>
            <td className="py-1 text-right tabular-nums">
              {k === "discount" ? `−${money(data[k])}` : money(data[k])}
            </td>
          </tr>
        ))}
        {total !== null ? (
          <tr className="border-t-2 border-slate-300 font-semibold">
            <th scope="row" colSpan={3} className="py-1.5 text-right">
              {amountLabel}
            </th>
            <td className="py-1.5 text-right tabular-nums">{money(total)}</td>
          </tr>
        ) : null}
      </tfoot>
    </table>
  );
}

function Row({ k, changed, children }: { k: string; changed: boolean; children: ReactNode }) {
  return (
    <div className="contents" data-key={k}>
      <dt className="text-slate-600">{summaryLabel(k)}</dt>
      <dd className={changed ? "font-medium text-slate-900" : "text-slate-900"}>
        {children}
        {changed ? (
          <span
            className="ml-2 rounded bg-amber-100 px-1 text-xs font-medium text-amber-900"
            data-field="changed"
          >
            changed
          </span>
        ) : null}
      </dd>
    </div>
  );
}

export function ConfirmationSummary({
  capability,
  actionId,
  version,
  summary,
  status,
  request,
  changed = [],
}: ConfirmationSummaryProps) {
  const data = isRecord(summary) ? summary : { value: summary };
  const currency = data.currency;
  const sentence = decisionSentence(data);
  const title = typeof data.title === "string" ? data.title : capabilityTitle(capability);
  const amountKey = ["total", "amount", "refund_amount"].find((k) => typeof data[k] === "number");
  const amountLabel = typeof data.amount_label === "string" ? data.amount_label : "Amount";
  const items = Array.isArray(data.items) && data.items.length > 0 ? (data.items as Item[]) : null;
  const context = isRecord(data[SUMMARY_CONTEXT_KEY])
    ? (data[SUMMARY_CONTEXT_KEY] as Record<string, unknown>)
    : {};
  const rest = Object.entries(data).filter(
    ([k]) =>
      !STRUCTURAL.has(k) &&
      k !== amountKey &&
      !k.startsWith("_") &&
      // With line items, the subtotal, shipping (and its method), coupon and discount are the table's footer.
      !(
        items &&
        (IN_ITEMS_FOOTER.includes(k) ||
          k === "coupon" ||
          (k === "shipping_method" && "shipping_price" in data))
      ),
  );
  const changedSet = new Set(changed);
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="confirmation-summary"
      data-action-id={actionId}
      data-version={version}
      aria-labelledby={`summary-${actionId}-${version}`}
    >
      <p className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <span data-field="capability">{title}</span>
        {status ? (
          <span data-field="status" data-status={status} className="font-medium text-slate-700">
            {approvalStatusLabel(status)}
          </span>
        ) : null}
      </p>
      <h2 id={`summary-${actionId}-${version}`} className="mt-1 text-xl font-semibold" data-field="title">
        {sentence ?? title}
      </h2>
      {amountKey ? (
        <p className="mt-2" data-field="amount">
          <span className="block text-xs font-medium text-slate-600" data-field="amount-label">
            {amountLabel}
          </span>
          <span className="text-3xl font-semibold tabular-nums">
            {formatMoney(data[amountKey], currency)}
          </span>
          {changedSet.has(amountKey) ? (
            <span
              className="ml-2 rounded bg-amber-100 px-1 text-xs font-medium text-amber-900"
              data-field="changed"
            >
              changed
            </span>
          ) : null}
        </p>
      ) : null}
      {items ? <ItemsTable data={data} currency={currency} amountLabel={amountLabel} /> : null}
      {rest.length > 0 || Object.keys(context).length > 0 ? (
        <dl
          className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm [overflow-wrap:anywhere]"
          data-field="details"
        >
          {rest.map(([k, v]) => (
            <Row key={k} k={k} changed={changedSet.has(k)}>
              {displayText(k, v, currency)}
            </Row>
          ))}
          {Object.entries(context).map(([k, v]) => (
            <Row key={k} k={k} changed={false}>
              {displayText(k, v, currency)}
            </Row>
          ))}
        </dl>
      ) : null}
      {request ? (
        <dl
          className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 border-t border-slate-200 pt-3 text-xs text-slate-700"
          data-field="request"
        >
          {request.agentName || request.requestedAt ? (
            <>
              <dt className="text-slate-600">Asked by</dt>
              <dd data-field="asked-by">
                {request.agentName ?? "an agent"}
                {request.forName ? ` for ${request.forName}` : ""}
                {request.requestedAt ? `, ${formatTime(request.requestedAt)}` : ""}
              </dd>
            </>
          ) : null}
          {request.expiresAt ? (
            <>
              <dt className="text-slate-600">Valid until</dt>
              <dd data-field="expires">{formatTime(request.expiresAt)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <details className="mt-3 text-xs text-slate-600" data-field="developer">
        <summary className="cursor-pointer">Details for developers</summary>
        <p className="mt-1 break-all">
          Action <code>{actionId}</code> · version {version} · capability <code>{capability}</code>
        </p>
      </details>
    </section>
  );
}
