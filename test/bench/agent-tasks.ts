import type { LegacyFault } from "../helpers/legacy-server";
import { dataOf, type RestAgent } from "./rest-agent";
import type { AgentTask } from "./signpost-agent";

type Json = Record<string, unknown>;

/** Reads the legacy system directly (not an agent call) to judge the end state. */
export type LegacyRead = (path: string) => Promise<Json>;

export interface BenchTask {
  id: string;
  title: string;
  /** Whose agent does it (tickets are support work). */
  as: "alice" | "sam";
  fault?: LegacyFault;
  signpost: AgentTask;
  /** The same job on the wrapped REST API, each step chosen from what the last answers said. */
  rest(agent: RestAgent): Promise<void>;
  /** Whether the legacy system ended where the user wanted; `answer` is everything the agent read. */
  check(read: LegacyRead, answer: string): Promise<boolean>;
}

const ALICE = "alice@acme.test";

async function customerId(agent: RestAgent, email = ALICE): Promise<string> {
  return String(dataOf(await agent.call("listCustomers", { email }))[0]?.id ?? "");
}

async function ordersOf(agent: RestAgent, customer: string, status?: string): Promise<Json[]> {
  return dataOf(
    await agent.call("listOrders", { customer_id: customer, ...(status ? { status } : {}), per_page: 100 }),
  );
}

const itemsOf = (order: Json) => (order.items ?? []) as Json[];

async function newestOrder(read: LegacyRead): Promise<Json | undefined> {
  return ((await read("/v1/orders?customer_id=cus_alice&per_page=1")).data as Json[])[0];
}

async function restCheckout(agent: RestAgent): Promise<void> {
  const customer = await customerId(agent);
  // The product as the user named it, found through the catalog (not known ahead).
  const mug = dataOf(await agent.call("listProducts", { q: "mug" })).find((p) =>
    /signpost mug/i.test(String(p.name)),
  );
  const addresses = dataOf(await agent.call("listAddresses", { id: customer }));
  const office = addresses.find((a) => /office/i.test(String(a.label)));
  const created = await agent.call("createOrder", {
    body: {
      customer_id: customer,
      items: [{ product_id: mug?.id, quantity: 2 }],
      address_id: office?.id,
      shipping_method: "standard",
      coupon_code: "SAVE5",
    },
  });
  const order = created.body as Json;
  const methods = dataOf(await agent.call("listPaymentMethods", { id: customer }));
  const balance = methods.find((m) => m.type === "balance");
  const pay = () =>
    agent.call("createPayment", {
      body: { order_id: order.id, payment_method_id: balance?.id, amount: order.total },
    });
  const paid = await pay();
  // A timeout tells the agent nothing: the wrapper's agent tries again, as models do.
  if (paid.status === 0 || paid.status >= 500) await pay();
}

async function checkoutRight(read: LegacyRead): Promise<boolean> {
  const order = await newestOrder(read);
  if (order?.status !== "paid" || order.coupon_code !== "SAVE5") return false;
  const payments = (await read(`/v1/payments?order_id=${order.id}`)).data as Json[];
  const lines = itemsOf(order);
  return (
    payments.length === 1 &&
    (order.address as Json).label === "Office" &&
    lines.length === 1 &&
    lines[0]?.product_id === "prod_mug" &&
    lines[0]?.quantity === 2 &&
    order.shipping_method === "standard" &&
    (order.payment as Json | null)?.method === "balance"
  );
}

const refundsOf = async (read: LegacyRead, orderId: string) =>
  ((await read(`/v1/orders/${orderId}`)).refunds ?? []) as Json[];

// The user's words only: the product, count, address, shipping, method and coupon are theirs to
// say and Signpost's to resolve through the choices it offers (no product id known ahead). The
// shipping method is named because its price is the user's to choose: Signpost never defaults it
// (search_capabilities says so up front, so a real agent asks the user before starting).
const CHECKOUT: AgentTask = {
  intent:
    "Buy two of the Signpost mugs, ship to the office with standard shipping, pay from my balance, with coupon SAVE5",
  facts: {},
};

/** The everyday tasks of issue 12, as the demo data allows them. */
export const BENCH_TASKS: BenchTask[] = [
  {
    id: "checkout",
    title: "buy with a coupon, ship to the office, pay from balance",
    as: "alice",
    signpost: CHECKOUT,
    rest: restCheckout,
    check: (read) => checkoutRight(read),
  },
  {
    id: "payment_timeout",
    title: "the same checkout while the payment times out",
    as: "alice",
    fault: { match: "POST /v1/payments", mode: "commit_then_timeout", count: 1, latency_ms: 6_000 },
    signpost: CHECKOUT,
    rest: restCheckout,
    check: (read) => checkoutRight(read),
  },
  {
    id: "refund_unshipped",
    title: "refund my order that has not shipped yet",
    as: "alice",
    signpost: {
      intent: "Refund my order that has not shipped yet, I changed my mind",
      facts: { kind: "refund_only", reason: "changed my mind" },
      picks: { order_id: /\bpaid\b/ },
    },
    async rest(agent) {
      const customer = await customerId(agent);
      const order = (await ordersOf(agent, customer, "paid"))[0];
      await agent.call("refundOrder", {
        id: order?.id,
        body: { amount: order?.refundable, reason: "changed my mind" },
      });
    },
    async check(read) {
      const refunds = await refundsOf(read, "ord_paid");
      return refunds.length === 1 && refunds[0]?.kind === "refund";
    },
  },
  {
    id: "refund_in_transit",
    title: "refund an order in transit (not possible now)",
    as: "alice",
    signpost: {
      intent: "I want my money back for the order that is on its way",
      facts: { reason: "I do not want it any more" },
      picks: { order_id: /in transit/ },
    },
    async rest(agent) {
      const customer = await customerId(agent);
      const order = (await ordersOf(agent, customer, "shipped"))[0];
      await agent.call("refundOrder", {
        id: order?.id,
        body: { amount: order?.refundable, reason: "I do not want it any more" },
      });
    },
    // Right: nothing refunded, and the agent learned why and what is possible instead.
    async check(read, answer) {
      return (await refundsOf(read, "ord_transit")).length === 0 && /deliver/i.test(answer);
    },
  },
  {
    id: "exchange",
    title: "exchange a delivered tee for size L",
    as: "alice",
    signpost: {
      intent: "Exchange the tee I received for size L",
      // The replacement as the user names it (a product name and size), not its id.
      facts: { kind: "exchange", reason: "too small", replacement_product_id: "Logo Tee L" },
      picks: { order_id: /Logo Tee \(M\)/, item_id: /Logo Tee \(M\)/ },
    },
    async rest(agent) {
      const customer = await customerId(agent);
      const orders = await ordersOf(agent, customer, "delivered");
      const order = orders.find((o) => itemsOf(o).some((i) => /Tee \(M\)/.test(String(i.name))));
      const item = order && itemsOf(order).find((i) => /Tee \(M\)/.test(String(i.name)));
      const large = dataOf(await agent.call("listProducts", { q: "tee" })).find((p) =>
        /\(L\)/.test(String(p.name)),
      );
      await agent.call("exchangeItem", {
        id: order?.id,
        body: { item_id: item?.id, replacement_product_id: large?.id, reason: "too small" },
      });
    },
    async check(read) {
      const refunds = await refundsOf(read, "ord_exchange");
      return refunds.length === 1 && refunds[0]?.kind === "exchange";
    },
  },
  {
    id: "change_address",
    title: "send my kettle order home instead",
    as: "alice",
    signpost: {
      intent: "Please deliver my kettle order to my home address instead",
      facts: { address_id: "Home" },
      picks: { order_id: /Kettle.*pending|pending.*Kettle/ },
    },
    async rest(agent) {
      const customer = await customerId(agent);
      const orders = await ordersOf(agent, customer, "pending_payment");
      const order = orders.find((o) => itemsOf(o).some((i) => /Kettle/.test(String(i.name))));
      const home = dataOf(await agent.call("listAddresses", { id: customer })).find((a) =>
        /home/i.test(String(a.label)),
      );
      await agent.call("changeOrderAddress", { id: order?.id, body: { address_id: home?.id } });
    },
    async check(read) {
      return ((await read("/v1/orders/ord_pending")).address as Json).label === "Home";
    },
  },
  {
    id: "track",
    title: "where is my parcel",
    as: "alice",
    signpost: {
      intent: "Where is my parcel? Give me the tracking number",
      facts: {},
      picks: { order_id: /in transit/ },
    },
    async rest(agent) {
      const customer = await customerId(agent);
      const order = (await ordersOf(agent, customer, "shipped"))[0];
      await agent.call("getTracking", { id: order?.id });
    },
    async check(read, answer) {
      const tracking = (await read("/v1/orders/ord_transit/tracking")) as Json;
      return answer.includes(String(tracking.tracking_number));
    },
  },
  {
    id: "list_orders",
    title: "list my orders",
    as: "alice",
    signpost: { intent: "list my orders", facts: {}, question: true },
    async rest(agent) {
      await ordersOf(agent, await customerId(agent));
    },
    async check(read, answer) {
      const orders = (await read("/v1/orders?customer_id=cus_alice&per_page=100")).data as Json[];
      return orders.every((o) => answer.includes(String(o.id)));
    },
  },
  {
    id: "assign_ticket",
    title: "assign the unassigned urgent ticket tkt_9 to an active teammate of its team",
    as: "sam",
    signpost: {
      intent: "Assign ticket tkt_9 to someone on its team",
      facts: {},
      picks: { assignee_id: /same_team"?:\s*true|same team/ },
    },
    async rest(agent) {
      const ticket = (await agent.call("getTicket", { id: "tkt_9" })).body as Json;
      const mates = dataOf(await agent.call("listTeammates", { team: ticket.team_id }));
      const mate = mates.find((m) => m.active !== false && m.id !== ticket.assignee_id);
      await agent.call("updateTicket", { id: "tkt_9", body: { assignee_id: mate?.id } });
    },
    async check(read) {
      const ticket = await read("/v1/tickets/tkt_9");
      const mates = (await read(`/v1/teammates?team=${ticket.team_id}`)).data as Json[];
      return mates.some((m) => m.id === ticket.assignee_id && m.active !== false);
    },
  },
  {
    id: "resolve_ticket",
    title: "resolve ticket tkt_2 with a resolution",
    as: "sam",
    signpost: {
      // The ticket is quoted in the words; the resolution is text the model writes from them.
      intent: "Resolve ticket tkt_2: the parcel was found at the depot and is on its way",
      facts: { resolution: "The parcel was found at the depot and is on its way." },
    },
    async rest(agent) {
      await agent.call("updateTicket", {
        id: "tkt_2",
        body: { status: "resolved", resolution: "The parcel was found at the depot and is on its way." },
      });
    },
    async check(read) {
      const ticket = await read("/v1/tickets/tkt_2");
      return ticket.status === "resolved" && typeof ticket.resolution === "string";
    },
  },
  {
    id: "shipping_tickets",
    title: "list the shipping team's open tickets, oldest first",
    as: "sam",
    // The team by its name, as a person says it: the listing filters by the team's id.
    signpost: { intent: "open tickets team shipping oldest first", facts: {}, question: true },
    async rest(agent) {
      const teams = dataOf(await agent.call("listTeams", {}));
      const shipping = teams.find((t) => /shipping/i.test(String(t.name)));
      await agent.call("listTickets", { status: "open", team_id: shipping?.id, sort: "created_at" });
    },
    async check(read, answer) {
      const open = (await read("/v1/tickets?status=open&team_id=shipping&sort=created_at")).data as Json[];
      // Each open shipping ticket, in order of creation (ids are word characters only).
      const at = open.map((t) => answer.search(new RegExp(`\\b${String(t.id)}\\b`)));
      return open.length > 0 && at.every((i, n) => i >= 0 && (n === 0 || i > (at[n - 1] ?? 0)));
    },
  },
];
