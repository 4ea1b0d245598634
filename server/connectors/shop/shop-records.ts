import { wordTable } from "../../word-table";
import type { BackendOutcome, BrowseBackend, ListPage, Row } from "../sdk/browse-backend";
import type { ReferenceNames } from "../sdk/reference-labels";
import { searchByWords, textTokens } from "../sdk/words-search";
import { cartShipping } from "./cart-shipping";
import type { ShopAdapter } from "./shop-adapter";

/** Rows per list page: small enough that a page stays a few hundred tokens. */
const PAGE_SIZE = 10;

/** Support and admins read every customer's records; anyone else only their own. */
export const isStaff = (backend: BrowseBackend) => {
  const { role } = backend.who();
  return role === "admin" || role === "support";
};

async function customerId(shop: ShopAdapter, backend: BrowseBackend): Promise<string | null> {
  return (await shop.customerByEmail(backend.who().userEmail))?.id ?? null;
}

/** Rows read per word when words are matched one by one: enough for the words to pick from. */
const WORDS_PAGE = 50;

/** Words that name the catalog, not what a product's text holds ("logo tee L products"). */
export const CATALOG_WORDS = new Set(["product", "catalog", "catalogue"]);

/**
 * Sizes as people say them and as the catalog writes them ("Logo Tee (L)", SKU "TEE-XL"): the
 * shop's own vocabulary, so it lives here and not in the search that uses it.
 */
const SIZE_WORDS: Readonly<Record<string, string[]>> = wordTable({
  "extra small": ["xs"],
  small: ["s"],
  medium: ["m"],
  large: ["l"],
  "extra large": ["xl"],
  "x large": ["xl"],
});

/** Orders this caller may see: members their own, support and admins the tenant's. */
export function listOrders(
  backend: BrowseBackend,
  input: { page: number; perPage?: number; status?: string; paymentMethod?: string },
): Promise<ListPage<Row> | BackendOutcome> {
  return backend.withAdapter<ShopAdapter, ListPage<Row>>("shop", async (shop) => {
    const staff = isStaff(backend);
    const customer = staff ? undefined : await customerId(shop, backend);
    if (!staff && !customer) return { data: [], page: input.page, next_page: null, total: 0 };
    const result = await shop.orders({
      customer_id: customer ?? undefined,
      status: input.status,
      payment_method: input.paymentMethod,
      page: input.page,
      per_page: input.perPage ?? PAGE_SIZE,
    });
    return {
      data: result.data as unknown as Row[],
      page: result.page,
      next_page: result.next_page,
      total: result.total,
    };
  });
}

/** Customers a page names at most (one listing page's orders are ten, from a few customers). */
const NAMED_CUSTOMERS = 10;

/**
 * How order rows name their customer (`customer_id`, shown when `?columns=` asks): by the
 * customer's name, read only for the ids on the page. A member's rows are all their own; staff
 * read every customer's orders and so may read their names. An id the shop cannot name stays an id.
 */
export function customerNames(backend: BrowseBackend): ReferenceNames {
  return async (ids) => {
    const named = await backend.withAdapter<ShopAdapter, Array<[string, string]>>("shop", async (shop) =>
      (
        await Promise.all(
          ids.slice(0, NAMED_CUSTOMERS).map((id) =>
            shop.customer(id).then(
              (c): Array<[string, string]> => (c?.name ? [[id, c.name]] : []),
              () => [],
            ),
          ),
        )
      ).flat(),
    );
    return Array.isArray(named) ? new Map(named) : null;
  };
}

export function listProducts(
  backend: BrowseBackend,
  input: { page: number; perPage?: number; q?: string; sort?: string },
): Promise<ListPage<Row> | BackendOutcome> {
  return backend.withAdapter<ShopAdapter, ListPage<Row>>("shop", async (shop) => {
    const result = await shop.products({
      q: input.q,
      sort: input.sort,
      page: input.page,
      per_page: input.perPage ?? PAGE_SIZE,
    });
    // The catalog's `q` is one substring: words that found nothing together ("logo tee l" is not
    // in "Logo Tee (L)") are matched one by one, as whole words, sizes as the shop writes them.
    const words = textTokens(input.q ?? "").filter((w) => !CATALOG_WORDS.has(w));
    if (!result.data.length && input.page === 1 && words.length > 1) {
      const rows = await searchByWords(
        words,
        async (q) => (await shop.products({ q, sort: input.sort, page: 1, per_page: WORDS_PAGE })).data,
        (p) => `${p.name} ${p.sku} ${p.description}`,
        SIZE_WORDS,
        true,
      );
      const shown = rows.slice(0, input.perPage ?? PAGE_SIZE) as unknown as Row[];
      return { data: shown, page: 1, next_page: null, total: shown.length };
    }
    return {
      data: result.data as unknown as Row[],
      page: result.page,
      next_page: result.next_page,
      total: result.total,
    };
  });
}

export function product(backend: BrowseBackend, id: string): Promise<Row | null | BackendOutcome> {
  return backend.withAdapter<ShopAdapter, Row | null>(
    "shop",
    async (shop) => ((await shop.product(id)) as unknown as Row | null) ?? null,
  );
}

/**
 * How many of a product the caller's own cart holds (0 where none); null where they are no
 * customer of the shop or the cart could not be read. Set BU: "Put two travel backpacks in my
 * cart" read the cart before its form (which sets the count it holds after) to learn whether some
 * were in it already.
 */
export async function heldInCart(backend: BrowseBackend, productId: string): Promise<number | null> {
  // The cart's own page decides who reads it (review 62: a rule denying it left this line saying it).
  if ((await backend.authorize("navigate", "shop://cart", { preview: true })).decision !== "allow")
    return null;
  const held = await backend.withAdapter<ShopAdapter, number | null>("shop", async (shop) => {
    const customer = await customerId(shop, backend);
    const found = customer ? await shop.cart(customer) : null;
    if (!found) return null;
    return found.items.find((i) => i.product_id === productId)?.quantity ?? 0;
  });
  return typeof held === "number" ? held : null;
}

/**
 * The caller's own cart, with the coupons that apply to its subtotal and what the others still
 * need (what "is there a coupon for my cart?" asks) and what shipping it would cost to each saved address (what "what would
 * it cost?" asks); null when they are not a customer of the shop.
 */
export function cart(backend: BrowseBackend): Promise<Row | null | BackendOutcome> {
  return backend.withAdapter<ShopAdapter, Row | null>("shop", async (shop) => {
    const customer = await customerId(shop, backend);
    if (!customer) return null;
    const found = await shop.cart(customer);
    if (!found) return null;
    const [coupons, shipping] = await Promise.all([
      shop.coupons(customer, found.subtotal),
      cartShipping(shop, customer, found.items, found.subtotal),
    ]);
    return {
      ...found,
      shipping,
      coupons: coupons
        .filter((c) => c.eligible)
        .map((c) => ({ code: c.code, label: c.description, discount: c.discount })),
      // The rest, with what each still needs (set AF: "do I have coupons I could use?" left the
      // model unsure which others exist and why they did not apply).
      coupons_not_yet: coupons
        .filter((c) => !c.eligible)
        .map((c) => ({
          code: c.code,
          label: c.description,
          discount: c.discount,
          needs: c.min_subtotal - found.subtotal,
        })),
    } as unknown as Row;
  });
}

/**
 * The caller's own customer record: name, store credit, saved addresses and payment methods
 * (what "how much store credit do I have?" asks). Whose it is comes from the caller's email,
 * never from the page's address, so no one else's is reachable; null when they are no customer.
 */
export function account(backend: BrowseBackend): Promise<Row | null | BackendOutcome> {
  return backend.withAdapter<ShopAdapter, Row | null>("shop", async (shop) => {
    const id = await customerId(shop, backend);
    if (!id) return null;
    const [customer, addresses, paymentMethods] = await Promise.all([
      shop.customer(id),
      shop.addresses(id),
      shop.paymentMethods(id),
    ]);
    if (!customer) return null;
    return { ...customer, addresses, payment_methods: paymentMethods } as unknown as Row;
  });
}
