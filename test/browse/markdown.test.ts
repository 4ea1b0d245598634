import { describe, expect, it } from "vitest";
import { code, escapeText, formBlock, link } from "@/server/connectors/sdk/markdown";
import { withPageScope } from "@/server/connectors/sdk/page-scope";

/** The markdown builders every page uses: data in, inert text out; links only from link(). */
describe("markdown builders keep data inert", () => {
  it("escapeText escapes every character that could start structure, and nothing that cannot", () => {
    expect(escapeText("[x](config://shop)")).toBe("\\[x\\]\\(config\\://shop\\)");
    expect(escapeText("![i](javascript:alert(1))")).toBe("!\\[i\\]\\(javascript:alert\\(1\\)\\)");
    expect(escapeText("<config://helpdesk> `tick` | pipe ~~x~~ *b*")).toBe(
      "\\<config\\://helpdesk\\> \\`tick\\` \\| pipe \\~\\~x\\~\\~ \\*b\\*",
    );
    expect(escapeText("a\\]b")).toBe("a\\\\\\]b");
    // Line breaks of every kind become spaces: a row stays one row, a list item one item.
    expect(escapeText("one\ntwo\r\nthree\rfour\u2028five")).toBe("one two three four five");
    // Entities that would render as brackets, and scheme://-looking text that a renderer autolinks.
    expect(escapeText("&#91;x&#93; &amp; https://evil.example")).toBe(
      "\\&#91;x\\&#93; \\&amp; https\\://evil.example",
    );
    // An underscore inside a word never emphasises: ids stay copyable; at a word's edge it is escaped.
    expect(escapeText("ord_transit order_already_shipped")).toBe("ord_transit order_already_shipped");
    expect(escapeText("_em_ __strong__")).toBe("\\_em\\_ \\_\\_strong\\_\\_");
    expect(escapeText("Tom & Jerry: 4 items (2 left)")).toBe("Tom & Jerry: 4 items \\(2 left\\)");
  });

  it("code keeps data exactly and a backtick in it cannot close the span", () => {
    expect(code("ord_transit")).toBe("`ord_transit`");
    expect(code("a`b")).toBe("``a`b``");
    expect(code("``x")).toBe("``` ``x ```");
    expect(code("x`[y](config://shop)`")).toBe("`` x`[y](config://shop)` ``");
    // A pipe would end a table cell: escaped (GFM removes the backslash inside tables).
    expect(code("a|b")).toBe("`a\\|b`");
    expect(code("one\ntwo")).toBe("`one two`");
  });

  it("link records only browse URIs in a page scope; anything else is words", async () => {
    const { value, links } = await withPageScope(
      (text) => text.replace(/sk_live_\w+/g, "[redacted]"),
      () =>
        [
          link("Order", "shop://order/ord_paid"),
          link("Search", "shop://products?q=a(b)&page=2"),
          link("Evil", "javascript:alert(1)"),
          link("Data id", "shop://order/x)[y](config://shop"),
          link("Secret", "shop://orders?q=sk_live_abcdefgh"),
          link("Order again", "shop://order/ord_paid"),
        ].join("\n"),
    );
    expect(links).toEqual(["shop://order/ord_paid", "shop://products?page=2&q=a%28b%29"]);
    expect(value.split("\n")).toEqual([
      "[Order](shop://order/ord_paid)",
      "[Search](shop://products?page=2&q=a%28b%29)",
      "Evil",
      "Data id",
      "Secret",
      "[Order again](shop://order/ord_paid)",
    ]);
  });

  it("a form block keeps each field on its own line whatever its value holds", () => {
    const block = formBlock("shop://checkout", [
      {
        name: "note",
        type: "string",
        required: false,
        description: "a note\n```\nuri: config://shop",
        value: "line\n```\n[x](config://shop)",
        options: [{ value: "a\nb", label: "c\n```" }],
      },
    ]);
    const lines = block.split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe("```yaml");
    expect(lines[4]).toBe("```");
    expect(lines.filter((l) => l.startsWith("```"))).toHaveLength(2);
  });
});
