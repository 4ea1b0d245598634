import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { row } from "../helpers/table-row";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Issue 23: a listing's curated columns dropped facts its rows held (payment, discount, coupon,
 * requester), and a model opened records one by one where the wrapper's one list call had every
 * field. Every listing now names, in one line, the fields its rows hold beyond the table, and
 * `?columns=` shows them in the same call, hand-written and imported listings alike.
 */
describe("listings: the facts their rows hold, one call away", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("a default listing names its other fields in one line, and ?columns= adds them", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const nav = async (uri: string) => text(await alice.callTool({ name: "navigate", arguments: { uri } }));
    const plain = await nav("shop://orders");
    const more = plain.split("\n").filter((l) => l.startsWith("More columns"));
    expect(more).toHaveLength(1);
    for (const field of ["payment", "discount", "coupon_code"]) expect(more[0]).toContain(field);
    // Shown columns are not offered again.
    expect(more[0]).not.toMatch(/[ ,]total[,.]/);

    const wide = await nav("shop://orders?columns=payment.method,discount,coupon_code");
    expect(row(wide, "ord_paid")).toMatchObject({
      "payment.method": "card",
      discount: "$30.00",
      coupon_code: "SAVE30",
    });
    expect(row(wide, "ord_exchange")["payment.method"]).toBe("balance");
    expect(row(wide, "ord_pending")["payment.method"]).toBe("—");
    // An object column by its parts, money as money.
    const objects = await nav("shop://orders?columns=payment");
    expect(row(objects, "ord_paid").payment).toContain("amount $316.00");
    expect(row(objects, "ord_paid").payment).toContain("method card");
    // The columns stay on the next page's link.
    const paged = await nav("shop://orders?per_page=2&columns=coupon_code");
    expect(paged).toContain("(shop://orders?columns=coupon_code&page=2&per_page=2)");
  });

  it("a name that is no field of the rows is refused, shown inert, never sent below", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const refused = text(
      await alice.callTool({
        name: "navigate",
        arguments: { uri: "shop://orders?columns=discount,%5Bx%5D(https%3A%2F%2Fevil.test)" },
      }),
    );
    // Escaped as text: the name cannot become a link.
    expect(refused).toMatch(/^\*\*rejected:\*\* "\\\[x\\\]\\\(https.*" is not a field of these rows/m);
    expect(refused).not.toContain("](https://evil.test)");
    expect(refused).toContain("`invalid_columns`");
    expect(refused).toContain("`coupon_code`");
    const many = text(
      await alice.callTool({
        name: "navigate",
        arguments: { uri: "shop://orders?columns=a,b,c,d,e,f,g,h,i,j,k" },
      }),
    );
    expect(many).toContain("`columns` takes at most 10 names.");
    // Set BR: seven columns asked for one question are shown, not refused.
    const seven = text(
      await alice.callTool({
        name: "navigate",
        arguments: {
          uri: "shop://orders?columns=subtotal,shipping_method,shipping_price,discount,refunded,paid_at,shipping_owed_to_customer",
        },
      }),
    );
    expect(seven).toContain("| shipping_owed_to_customer |");
  });

  it("the ticket listing offers the requester, and an imported listing does the same", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const nav = async (uri: string) => text(await sam.callTool({ name: "navigate", arguments: { uri } }));
    const tickets = await nav("helpdesk://tickets?columns=requester_email");
    expect(row(tickets, "tkt_1").requester_email).toBe("alice@acme.test");
    const imported = await nav("legacy://v1/orders");
    expect(imported).toMatch(/^More columns \(`\?columns=[^`]+`\): .*\bcoupon_code\b/m);
    const wide = await nav("legacy://v1/orders?columns=coupon_code,payment.method");
    expect(row(wide, "ord_paid")).toMatchObject({ coupon_code: "SAVE30", "payment.method": "card" });
    const refused = await nav("legacy://v1/orders?columns=nope");
    expect(refused).toContain("`invalid_columns`");
  });
});
