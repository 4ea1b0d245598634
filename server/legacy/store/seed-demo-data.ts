// stays-whole: seed data of the demo legacy service, one table after another.
import type Database from "better-sqlite3";
import { quoteShipping, type ShippingMethod } from "../shop/quote-shipping";

export interface LegacyApiKeys {
  acme: string;
  globex: string;
}

const day = 86_400_000;

interface ProductSeed {
  id: string;
  sku: string;
  name: string;
  description: string;
  price: number;
  weight: number;
  exchangeable?: boolean;
  stock: number;
  reserved?: number;
}

const acmeProducts: ProductSeed[] = [
  {
    id: "prod_mug",
    sku: "MUG-01",
    name: "Signpost Mug",
    description: "Stoneware mug, 350 ml.",
    price: 1800,
    weight: 400,
    stock: 120,
    reserved: 1,
  },
  {
    id: "prod_tee",
    sku: "TEE-M",
    name: "Logo Tee (M)",
    description: "Cotton t-shirt, size M.",
    price: 2500,
    weight: 200,
    exchangeable: true,
    stock: 40,
  },
  {
    id: "prod_tee_s",
    sku: "TEE-S",
    name: "Logo Tee (S)",
    description: "Cotton t-shirt, size S.",
    price: 2500,
    weight: 200,
    exchangeable: true,
    stock: 25,
  },
  {
    id: "prod_tee_l",
    sku: "TEE-L",
    name: "Logo Tee (L)",
    description: "Cotton t-shirt, size L.",
    price: 2500,
    weight: 220,
    exchangeable: true,
    stock: 30,
  },
  {
    id: "prod_tee_xl",
    sku: "TEE-XL",
    name: "Logo Tee (XL)",
    description: "Cotton t-shirt, size XL. Sold out.",
    price: 2500,
    weight: 240,
    exchangeable: true,
    stock: 0,
  },
  {
    id: "prod_hoodie",
    sku: "HOOD-M",
    name: "Hoodie (M)",
    description: "Fleece hoodie, size M.",
    price: 5400,
    weight: 700,
    exchangeable: true,
    stock: 15,
  },
  {
    id: "prod_kettle",
    sku: "KET-1",
    name: "Electric Kettle",
    description: "1.7 l kettle, 2200 W.",
    price: 15000,
    weight: 1500,
    stock: 12,
    reserved: 1,
  },
  {
    id: "prod_lamp",
    sku: "LAMP-1",
    name: "Desk Lamp",
    description: "Dimmable LED desk lamp.",
    price: 32000,
    weight: 2500,
    stock: 5,
    reserved: 1,
  },
  {
    id: "prod_headphones",
    sku: "HP-1",
    name: "Wireless Headphones",
    description: "Noise-cancelling, 30 h battery.",
    price: 24900,
    weight: 600,
    stock: 8,
  },
  {
    id: "prod_backpack",
    sku: "BAG-1",
    name: "Travel Backpack",
    description: "30 l, water resistant.",
    price: 8900,
    weight: 900,
    stock: 20,
  },
];

const globexProducts: ProductSeed[] = [
  {
    id: "prod_widget",
    sku: "GX-W",
    name: "Globex Widget",
    description: "The original widget.",
    price: 1200,
    weight: 300,
    stock: 500,
  },
  {
    id: "prod_gadget",
    sku: "GX-G",
    name: "Globex Gadget",
    description: "A gadget for widgets.",
    price: 4500,
    weight: 800,
    stock: 60,
  },
];

interface AddressSeed {
  id: string;
  customer: string;
  label: string;
  line1: string;
  city: string;
  postal: string;
  country: string;
}

interface OrderSeed {
  id: string;
  customer: string;
  status: "pending_payment" | "paid" | "shipped" | "delivered" | "cancelled";
  items: [string, number][];
  address: string;
  method: ShippingMethod;
  coupon?: string;
  paidWith?: string;
  createdDaysAgo: number;
  deliveredDaysAgo?: number;
  /** Paid shipping minus what shipping actually cost (e.g. express paid, standard shipped). */
  shippingDifference?: number;
}

/**
 * Writes the demo world of API.md: tenants acme and globex, acme's catalog, customers,
 * one order per state with fixed ids, a cart, coupons and a helpdesk.
 * Dates are relative to `now` so "delivered recently" stays inside the return window.
 */
export function seedDemoData(db: Database.Database, apiKeys: LegacyApiKeys, now: Date = new Date()): void {
  const at = (daysAgo: number, hours = 0) =>
    new Date(now.getTime() - daysAgo * day + hours * 3_600_000).toISOString();
  const run = (sql: string, ...args: unknown[]) => db.prepare(sql).run(...args);

  const upsertTenant = db.prepare(
    "INSERT INTO tenants (id, name, api_key) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET api_key = excluded.api_key, name = excluded.name",
  );
  upsertTenant.run("acme", "Acme Corp", apiKeys.acme);
  upsertTenant.run("globex", "Globex Inc", apiKeys.globex);

  const products = new Map<string, ProductSeed>();
  const seedProducts = (tenant: string, list: ProductSeed[]) => {
    for (const p of list) {
      products.set(`${tenant}/${p.id}`, p);
      run(
        "INSERT INTO products (tenant_id, id, sku, name, description, price, weight_grams, exchangeable) VALUES (?,?,?,?,?,?,?,?)",
        tenant,
        p.id,
        p.sku,
        p.name,
        p.description,
        p.price,
        p.weight,
        p.exchangeable ? 1 : 0,
      );
      run(
        "INSERT INTO inventory (tenant_id, product_id, available, reserved) VALUES (?,?,?,?)",
        tenant,
        p.id,
        p.stock,
        p.reserved ?? 0,
      );
    }
  };
  seedProducts("acme", acmeProducts);
  seedProducts("globex", globexProducts);

  const customers: [string, string, string, string, number][] = [
    ["acme", "cus_alice", "alice@acme.test", "Alice Example", 100_000],
    ["acme", "cus_adam", "adam@acme.test", "Adam Admin", 0],
    ["acme", "cus_sam", "sam@acme.test", "Sam Support", 5_000],
    ["globex", "cus_gina", "gina@globex.test", "Gina Globex", 20_000],
  ];
  for (const c of customers)
    run("INSERT INTO customers (tenant_id, id, email, name, balance) VALUES (?,?,?,?,?)", ...c);

  const addresses: [string, AddressSeed][] = [
    [
      "acme",
      {
        id: "addr_alice_office",
        customer: "cus_alice",
        label: "Office",
        line1: "1 Market Street",
        city: "Springfield",
        postal: "12345",
        country: "US",
      },
    ],
    [
      "acme",
      {
        id: "addr_alice_home",
        customer: "cus_alice",
        label: "Home",
        line1: "42 Elm Road",
        city: "Shelbyville",
        postal: "23456",
        country: "US",
      },
    ],
    [
      "acme",
      {
        id: "addr_adam_home",
        customer: "cus_adam",
        label: "Home",
        line1: "7 Oak Avenue",
        city: "Springfield",
        postal: "12346",
        country: "US",
      },
    ],
    [
      "acme",
      {
        id: "addr_sam_home",
        customer: "cus_sam",
        label: "Home",
        line1: "9 Rue de la Paix",
        city: "Paris",
        postal: "75002",
        country: "FR",
      },
    ],
    [
      "globex",
      {
        id: "addr_gina_office",
        customer: "cus_gina",
        label: "Office",
        line1: "100 Globex Plaza",
        city: "Cypress Creek",
        postal: "90210",
        country: "US",
      },
    ],
  ];
  const addressById = new Map<string, AddressSeed>();
  for (const [tenant, a] of addresses) {
    addressById.set(`${tenant}/${a.id}`, a);
    run(
      "INSERT INTO addresses (tenant_id, id, customer_id, label, line1, city, postal_code, country, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
      tenant,
      a.id,
      a.customer,
      a.label,
      a.line1,
      a.city,
      a.postal,
      a.country,
      at(400),
    );
  }

  const paymentMethods: [string, string, string, "balance" | "card", string][] = [
    ["acme", "pm_alice_balance", "cus_alice", "balance", "Store credit"],
    ["acme", "pm_alice_card", "cus_alice", "card", "Visa •••• 4242"],
    ["acme", "pm_adam_balance", "cus_adam", "balance", "Store credit"],
    ["acme", "pm_adam_card", "cus_adam", "card", "Mastercard •••• 4444"],
    ["acme", "pm_sam_balance", "cus_sam", "balance", "Store credit"],
    ["globex", "pm_gina_balance", "cus_gina", "balance", "Store credit"],
    ["globex", "pm_gina_card", "cus_gina", "card", "Amex •••• 0005"],
  ];
  for (const pm of paymentMethods)
    run("INSERT INTO payment_methods (tenant_id, id, customer_id, type, label) VALUES (?,?,?,?,?)", ...pm);

  run(
    "INSERT INTO cart_items (tenant_id, customer_id, product_id, quantity, added_at) VALUES (?,?,?,?,?)",
    "acme",
    "cus_alice",
    "prod_mug",
    2,
    at(0, -2),
  );
  run(
    "INSERT INTO cart_items (tenant_id, customer_id, product_id, quantity, added_at) VALUES (?,?,?,?,?)",
    "acme",
    "cus_alice",
    "prod_tee",
    1,
    at(0, -1),
  );

  const coupons: [string, string, string, number, number][] = [
    ["acme", "SAVE5", "5.00 off orders of 20.00 or more", 500, 2_000],
    ["acme", "SAVE30", "30.00 off orders of 300.00 or more", 3_000, 30_000],
    ["acme", "BIG100", "100.00 off orders of 1000.00 or more", 10_000, 100_000],
    ["globex", "WELCOME5", "5.00 off orders of 50.00 or more", 500, 5_000],
  ];
  for (const c of coupons)
    run(
      "INSERT INTO coupons (tenant_id, code, description, discount, min_subtotal) VALUES (?,?,?,?,?)",
      ...c,
    );
  const couponDiscount = new Map(coupons.map((c) => [`${c[0]}/${c[1]}`, c[3]]));

  const acmeOrders: OrderSeed[] = [
    {
      id: "ord_pending",
      customer: "cus_alice",
      status: "pending_payment",
      items: [["prod_kettle", 1]],
      address: "addr_alice_office",
      method: "standard",
      createdDaysAgo: 1,
    },
    {
      id: "ord_paid",
      customer: "cus_alice",
      status: "paid",
      items: [
        ["prod_lamp", 1],
        ["prod_mug", 1],
      ],
      address: "addr_alice_office",
      method: "standard",
      coupon: "SAVE30",
      paidWith: "pm_alice_card",
      createdDaysAgo: 2,
    },
    {
      id: "ord_transit",
      customer: "cus_alice",
      status: "shipped",
      items: [["prod_headphones", 1]],
      address: "addr_alice_home",
      method: "express",
      paidWith: "pm_alice_card",
      createdDaysAgo: 3,
    },
    {
      id: "ord_delivered",
      customer: "cus_alice",
      status: "delivered",
      items: [
        ["prod_kettle", 1],
        ["prod_mug", 2],
      ],
      address: "addr_alice_office",
      method: "standard",
      paidWith: "pm_alice_card",
      createdDaysAgo: 9,
      deliveredDaysAgo: 5,
    },
    {
      id: "ord_exchange",
      customer: "cus_alice",
      status: "delivered",
      items: [
        ["prod_tee", 1],
        ["prod_mug", 1],
      ],
      address: "addr_alice_home",
      method: "standard",
      paidWith: "pm_alice_balance",
      createdDaysAgo: 7,
      deliveredDaysAgo: 3,
    },
    {
      id: "ord_shipdiff",
      customer: "cus_alice",
      status: "delivered",
      items: [["prod_backpack", 1]],
      address: "addr_alice_home",
      method: "express",
      paidWith: "pm_alice_card",
      createdDaysAgo: 8,
      deliveredDaysAgo: 4,
      shippingDifference: 700,
    },
    {
      id: "ord_delivered_old",
      customer: "cus_alice",
      status: "delivered",
      items: [["prod_mug", 1]],
      address: "addr_alice_office",
      method: "standard",
      paidWith: "pm_alice_card",
      createdDaysAgo: 50,
      deliveredDaysAgo: 45,
    },
    {
      id: "ord_cancelled",
      customer: "cus_alice",
      status: "cancelled",
      items: [["prod_tee", 2]],
      address: "addr_alice_home",
      method: "standard",
      createdDaysAgo: 10,
    },
  ];
  const globexOrders: OrderSeed[] = [
    {
      id: "ord_globex_paid",
      customer: "cus_gina",
      status: "paid",
      items: [["prod_widget", 3]],
      address: "addr_gina_office",
      method: "standard",
      paidWith: "pm_gina_card",
      createdDaysAgo: 2,
    },
  ];

  let trackingSeq = 1000;
  const seedOrder = (tenant: string, o: OrderSeed) => {
    const address = addressById.get(`${tenant}/${o.address}`);
    if (!address) throw new Error(`seed: unknown address ${o.address}`);
    let subtotal = 0;
    let weight = 0;
    o.items.forEach(([productId, qty], i) => {
      const p = products.get(`${tenant}/${productId}`);
      if (!p) throw new Error(`seed: unknown product ${productId}`);
      subtotal += p.price * qty;
      weight += p.weight * qty;
      run(
        "INSERT INTO order_items (tenant_id, id, order_id, product_id, name, quantity, unit_price, exchangeable, position) VALUES (?,?,?,?,?,?,?,?,?)",
        tenant,
        `${o.id}_item_${i + 1}`,
        o.id,
        productId,
        p.name,
        qty,
        p.price,
        p.exchangeable ? 1 : 0,
        i,
      );
    });
    const quote = quoteShipping(weight, address).find((q) => q.method === o.method);
    if (!quote) throw new Error(`seed: ${o.method} not offered for ${o.id}`);
    const discount = o.coupon ? (couponDiscount.get(`${tenant}/${o.coupon}`) ?? 0) : 0;
    const total = subtotal - discount + quote.price;
    const created = at(o.createdDaysAgo);
    const delivered = o.deliveredDaysAgo !== undefined ? at(o.deliveredDaysAgo) : null;
    const addressJson = JSON.stringify({
      id: address.id,
      label: address.label,
      line1: address.line1,
      city: address.city,
      postal_code: address.postal,
      country: address.country,
    });
    run(
      `INSERT INTO orders (tenant_id, id, customer_id, status, address_id, address_json, shipping_method, shipping_price,
        subtotal, discount, coupon_code, total, shipping_difference, reference, created_at, updated_at, delivered_at)
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      tenant,
      o.id,
      o.customer,
      o.status,
      address.id,
      addressJson,
      o.method,
      quote.price,
      subtotal,
      discount,
      o.coupon ?? null,
      total,
      o.shippingDifference ?? 0,
      null,
      created,
      delivered ?? created,
      delivered,
    );
    if (o.paidWith) {
      const method = o.paidWith.includes("balance") ? "balance" : "card";
      run(
        "INSERT INTO payments (tenant_id, id, order_id, payment_method_id, method, amount, status, reference, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
        tenant,
        `pay_${o.id.slice(4)}`,
        o.id,
        o.paidWith,
        method,
        total,
        "succeeded",
        null,
        at(o.createdDaysAgo, 1),
      );
    }
    if (o.status === "shipped" || o.status === "delivered") {
      const shipmentId = `shp_${o.id.slice(4)}`;
      const shippedDaysAgo = o.deliveredDaysAgo !== undefined ? o.deliveredDaysAgo + 2 : o.createdDaysAgo - 1;
      trackingSeq += 1;
      run(
        "INSERT INTO shipments (tenant_id, id, order_id, carrier, tracking_number, status, created_at) VALUES (?,?,?,?,?,?,?)",
        tenant,
        shipmentId,
        o.id,
        "UPS",
        `1Z999AA1${trackingSeq}`,
        o.status === "delivered" ? "delivered" : "in_transit",
        at(shippedDaysAgo),
      );
      const events: [string, string, string][] = [
        [at(shippedDaysAgo), "Springfield warehouse", "Label created, parcel handed to carrier"],
        [at(shippedDaysAgo, 6), "Springfield hub", "Departed facility"],
        [at(shippedDaysAgo, 20), `${address.city} depot`, "Arrived at destination depot"],
      ];
      if (delivered) events.push([delivered, address.city, "Delivered"]);
      events.forEach(([when, location, description], seq) => {
        run(
          "INSERT INTO tracking_events (tenant_id, shipment_id, seq, at, location, description) VALUES (?,?,?,?,?,?)",
          tenant,
          shipmentId,
          seq,
          when,
          location,
          description,
        );
      });
    }
  };
  for (const o of acmeOrders) seedOrder("acme", o);
  for (const o of globexOrders) seedOrder("globex", o);

  const teams: [string, string, string][] = [
    ["acme", "billing", "Billing"],
    ["acme", "shipping", "Shipping"],
    ["globex", "support", "Support"],
  ];
  for (const t of teams) run("INSERT INTO teams (tenant_id, id, name) VALUES (?,?,?)", ...t);
  const teammates: [string, string, string, string, string, number][] = [
    ["acme", "tm_bella", "Bella Billing", "bella@acme.test", "billing", 1],
    ["acme", "tm_bruno", "Bruno Billing", "bruno@acme.test", "billing", 0],
    ["acme", "tm_sid", "Sid Shipping", "sid@acme.test", "shipping", 1],
    ["acme", "tm_sara", "Sara Shipping", "sara@acme.test", "shipping", 1],
    ["globex", "tm_gus", "Gus Support", "gus@globex.test", "support", 1],
  ];
  for (const t of teammates)
    run("INSERT INTO teammates (tenant_id, id, name, email, team_id, active) VALUES (?,?,?,?,?,?)", ...t);

  type TicketSeed = [
    string,
    string,
    string,
    string,
    string,
    string,
    string | null,
    string,
    string,
    string | null,
    string | null,
    number,
  ];
  // tenant, id, subject, description, status, priority, assignee, team, requester, resolution, order, days ago.
  // No two at one instant: played, "the oldest open ticket" met three opened at the same second.
  const tickets: TicketSeed[] = [
    [
      "acme",
      "tkt_1",
      "Charged twice?",
      "My card shows two charges for my lamp order.",
      "open",
      "high",
      null,
      "billing",
      "alice@acme.test",
      null,
      "ord_paid",
      1 + 2 / 24,
    ],
    [
      "acme",
      "tkt_2",
      "Where are my headphones?",
      "Tracking has not moved since yesterday.",
      "open",
      "normal",
      "tm_sid",
      "shipping",
      "alice@acme.test",
      null,
      "ord_transit",
      1 + 1 / 24,
    ],
    [
      "acme",
      "tkt_3",
      "Kettle refund",
      "The kettle is too loud, I want my money back.",
      "pending",
      "normal",
      "tm_bella",
      "billing",
      "alice@acme.test",
      null,
      "ord_delivered",
      3,
    ],
    [
      "acme",
      "tkt_4",
      "Change delivery address",
      "Please send my kettle to my home instead.",
      "pending",
      "low",
      "tm_sara",
      "shipping",
      "alice@acme.test",
      null,
      "ord_pending",
      1,
    ],
    [
      "acme",
      "tkt_5",
      "Coupon not applied",
      "SAVE5 did not apply at checkout.",
      "resolved",
      "normal",
      "tm_bella",
      "billing",
      "adam@acme.test",
      "Applied the discount as store credit.",
      null,
      12,
    ],
    [
      "acme",
      "tkt_6",
      "Parcel damaged",
      "The box arrived crushed.",
      "resolved",
      "high",
      "tm_sid",
      "shipping",
      "sam@acme.test",
      "Replacement shipped.",
      null,
      20,
    ],
    [
      "acme",
      "tkt_7",
      "Invoice copy",
      "Please send me an invoice.",
      "closed",
      "low",
      "tm_bella",
      "billing",
      "adam@acme.test",
      "Invoice sent by email.",
      null,
      30,
    ],
    [
      "acme",
      "tkt_8",
      "Late delivery",
      "My order took two weeks.",
      "closed",
      "normal",
      "tm_sara",
      "shipping",
      "alice@acme.test",
      "Delivered; apologised.",
      "ord_delivered_old",
      40,
    ],
    [
      "acme",
      "tkt_9",
      "Wrong size tee",
      "The M is too small, can I get an L?",
      "open",
      "urgent",
      null,
      "shipping",
      "alice@acme.test",
      null,
      "ord_exchange",
      0,
    ],
    [
      "globex",
      "tkt_gx_1",
      "Widget squeaks",
      "My widget squeaks when turned.",
      "open",
      "normal",
      "tm_gus",
      "support",
      "gina@globex.test",
      null,
      "ord_globex_paid",
      1,
    ],
  ];
  for (const t of tickets) {
    const created = at(t[11]);
    run(
      `INSERT INTO tickets (tenant_id, id, subject, description, status, priority, assignee_id, team_id, requester_email,
        resolution, order_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      ...t.slice(0, 11),
      created,
      created,
    );
  }
  const comments: [string, string, string, string, string, number, number][] = [
    ["acme", "cmt_1", "tkt_1", "alice@acme.test", "I only clicked pay once.", 0, 1],
    ["acme", "cmt_2", "tkt_1", "tm_bella", "Card processor shows one capture and one authorisation.", 1, 1],
    ["acme", "cmt_3", "tkt_3", "tm_bella", "Asked the customer whether the kettle is unused.", 0, 2],
    ["acme", "cmt_4", "tkt_9", "alice@acme.test", "Size L please.", 0, 0],
    ["acme", "cmt_5", "tkt_6", "tm_sid", "Carrier confirmed the damage; claim filed.", 1, 19],
    [
      "acme",
      "cmt_6",
      "tkt_6",
      "tm_sid",
      "Sorry about the crushed box! A replacement ships today; no need to return the damaged one.",
      0,
      19,
    ],
    ["globex", "cmt_gx_1", "tkt_gx_1", "gina@globex.test", "It is the left hinge.", 0, 1],
  ];
  for (const c of comments) {
    run(
      "INSERT INTO ticket_comments (tenant_id, id, ticket_id, author, body, internal, reference, created_at) VALUES (?,?,?,?,?,?,?,?)",
      ...c.slice(0, 6),
      null,
      // An hour after its ticket was opened, but never later than now (a ticket opened today).
      at(c[6], c[6] > 0 ? 1 : 0),
    );
  }
}
