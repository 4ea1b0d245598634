/**
 * The legacy store's tables. Every row carries tenant_id and every key includes it,
 * so tenant scoping is a WHERE clause away and ids may repeat across tenants.
 * CHECK constraints are the last line against double debits and oversold stock.
 */
export const legacySchemaSql = `
CREATE TABLE IF NOT EXISTS tenants (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, api_key TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS products (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, sku TEXT NOT NULL, name TEXT NOT NULL,
  description TEXT NOT NULL, price INTEGER NOT NULL CHECK (price >= 0),
  weight_grams INTEGER NOT NULL, exchangeable INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS inventory (
  tenant_id TEXT NOT NULL, product_id TEXT NOT NULL,
  available INTEGER NOT NULL CHECK (available >= 0), reserved INTEGER NOT NULL CHECK (reserved >= 0),
  PRIMARY KEY (tenant_id, product_id)
);
CREATE TABLE IF NOT EXISTS customers (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, email TEXT NOT NULL, name TEXT NOT NULL,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS addresses (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, customer_id TEXT NOT NULL, label TEXT NOT NULL,
  line1 TEXT NOT NULL, city TEXT NOT NULL, postal_code TEXT NOT NULL, country TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS payment_methods (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, customer_id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('balance', 'card')), label TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS cart_items (
  tenant_id TEXT NOT NULL, customer_id TEXT NOT NULL, product_id TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0), added_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, customer_id, product_id)
);
CREATE TABLE IF NOT EXISTS coupons (
  tenant_id TEXT NOT NULL, code TEXT NOT NULL, description TEXT NOT NULL,
  discount INTEGER NOT NULL, min_subtotal INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, code)
);
CREATE TABLE IF NOT EXISTS orders (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, customer_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending_payment', 'paid', 'shipped', 'delivered', 'cancelled')),
  address_id TEXT NOT NULL, address_json TEXT NOT NULL,
  shipping_method TEXT NOT NULL, shipping_price INTEGER NOT NULL,
  subtotal INTEGER NOT NULL, discount INTEGER NOT NULL, coupon_code TEXT,
  total INTEGER NOT NULL, shipping_difference INTEGER NOT NULL DEFAULT 0 CHECK (shipping_difference >= 0),
  reference TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, delivered_at TEXT,
  from_cart INTEGER NOT NULL DEFAULT 0 CHECK (from_cart IN (0, 1)),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX IF NOT EXISTS orders_by_reference ON orders (tenant_id, reference);
CREATE TABLE IF NOT EXISTS order_items (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, order_id TEXT NOT NULL, product_id TEXT NOT NULL,
  name TEXT NOT NULL, quantity INTEGER NOT NULL, unit_price INTEGER NOT NULL,
  exchangeable INTEGER NOT NULL,
  status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'returned', 'exchanged')),
  position INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS payments (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, order_id TEXT NOT NULL, payment_method_id TEXT NOT NULL,
  method TEXT NOT NULL, amount INTEGER NOT NULL, status TEXT NOT NULL, reference TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS shipments (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, order_id TEXT NOT NULL, carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS tracking_events (
  tenant_id TEXT NOT NULL, shipment_id TEXT NOT NULL, seq INTEGER NOT NULL,
  at TEXT NOT NULL, location TEXT NOT NULL, description TEXT NOT NULL,
  PRIMARY KEY (tenant_id, shipment_id, seq)
);
CREATE TABLE IF NOT EXISTS refunds (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, order_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('refund', 'return', 'exchange', 'shipping_refund', 'cancellation')),
  amount INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, reference TEXT,
  details_json TEXT NOT NULL DEFAULT '{}', created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS teams (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS teammates (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, email TEXT NOT NULL,
  team_id TEXT NOT NULL, active INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS tickets (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, subject TEXT NOT NULL, description TEXT NOT NULL,
  status TEXT NOT NULL, priority TEXT NOT NULL, assignee_id TEXT, team_id TEXT,
  requester_email TEXT NOT NULL, resolution TEXT, order_id TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS ticket_comments (
  tenant_id TEXT NOT NULL, id TEXT NOT NULL, ticket_id TEXT NOT NULL, author TEXT NOT NULL,
  body TEXT NOT NULL, internal INTEGER NOT NULL, reference TEXT, created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  tenant_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  response_status INTEGER, response_body TEXT, locked_at TEXT NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
`;

/** Tables holding demo data (everything but tenants), in delete order for a reset. */
export const legacyDataTables = [
  "idempotency_keys",
  "ticket_comments",
  "tickets",
  "teammates",
  "teams",
  "refunds",
  "tracking_events",
  "shipments",
  "payments",
  "order_items",
  "orders",
  "coupons",
  "cart_items",
  "payment_methods",
  "addresses",
  "customers",
  "inventory",
  "products",
] as const;
