import type { Row } from "../sdk/browse-backend";
import type { RouteDefinition } from "../sdk/define-route";
import { objectSections, rowsTable } from "../sdk/render-helpers";
import { isOutcome, NOT_FOUND_FOR, outcomePage } from "../sdk/route-pages";
import { account } from "./shop-records";

/**
 * `shop://profile`: the caller's own shop account (name, store credit, saved addresses,
 * payment methods). "How much store credit do I have left?" found no page but the pay form.
 * It takes no id: whose account it is comes from the caller, so another's is never reachable.
 */
export const PROFILE_ROUTE: RouteDefinition = {
  pattern: "shop://profile",
  title: "Profile",
  description: "Your shop account: name, store credit balance, saved addresses and payment methods.",
  // "account" and "balance" are description words: a company's own "accounts" listing (a CRM's)
  // is what "accounts" asks for, and "refund to my balance" is about the refund.
  keywords: [
    "profile",
    "store credit",
    "credit",
    "addresses",
    "saved addresses",
    "payment methods",
    "账户",
    "余额",
  ],
  startPoint: true,
  async render(_match, backend) {
    const found = await account(backend);
    if (found === null) return NOT_FOUND_FOR("account", "mine");
    if (isOutcome(found)) return outcomePage("Profile", found);
    const addresses = Array.isArray(found.addresses) ? (found.addresses as Row[]) : [];
    const methods = Array.isArray(found.payment_methods) ? (found.payment_methods as Row[]) : [];
    return {
      title: "Profile",
      outcome: "applied",
      markdown: [
        objectSections({ name: found.name, email: found.email, store_credit_balance: found.balance }),
        `### Addresses\n\n${rowsTable(addresses, ["id", "label", "line1", "city", "postal_code", "country"])}`,
        `### Payment methods\n\n${rowsTable(methods, ["id", "type", "label", "available"])}`,
      ].join("\n\n"),
    };
  },
};
