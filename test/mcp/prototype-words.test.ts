import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Review 63: "my orders without a constructor" failed the call (`internal_error`): a word of the
 * user's looked up in a plain object found Object's own `constructor`. Every word an agent sends
 * is data: these names, in the shapes the readings look for, get a typed answer from every tool
 * that reads words, never a failed call.
 */
const NAMES = [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "isPrototypeOf",
];
const SHAPES = [
  (x: string) => `my orders without a ${x}`,
  (x: string) => `${x} tickets`,
  (x: string) => `not ${x}`,
  (x: string) => `all but ${x}`,
  (x: string) => `${x} of ${x} rather than ${x}`,
  (x: string) => `orders with a ${x} instead of ${x}`,
  (x: string) => `the ${x} with the most ${x}`,
  (x: string) => `give ${x} to ${x}`,
];

describe("words that name an object's own properties", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("get a typed answer from navigate and submit, in a filter, a sort and the user's words", async () => {
    const failed: string[] = [];
    const client = await w.connect(w.keys.sam);
    for (const name of NAMES) {
      for (const uri of [
        `helpdesk://tickets?q=${name}`,
        `helpdesk://tickets?status=${name}`,
        `helpdesk://tickets?sort=${name}`,
        `helpdesk://tickets?columns=${name}`,
        `helpdesk://ticket/${name}`,
      ]) {
        const t = text(await client.callTool({ name: "navigate", arguments: { uri } }));
        if (/failed to process|internal_error/.test(t)) failed.push(`navigate ${uri}`);
      }
      const fields = { user_words: `give it to ${name}, not ${name}` };
      const t = text(
        await client.callTool({
          name: "submit",
          arguments: { uri: "helpdesk://ticket/tkt_2/assign", fields },
        }),
      );
      if (/failed to process|internal_error/.test(t)) failed.push(`submit ${name}`);
    }
    expect(failed).toEqual([]);
  });

  it("get a typed answer from search, search_capabilities and start_action", {
    timeout: 240_000,
  }, async () => {
    const failed: string[] = [];
    for (const key of [w.keys.alice, w.keys.sam]) {
      const client = await w.connect(key);
      for (const name of NAMES)
        for (const shape of SHAPES) {
          const words = shape(name);
          for (const [tool, args] of [
            ["search", { query: words }],
            ["search_capabilities", { query: words }],
            ["start_action", { intent: words }],
          ] as const) {
            const t = text(await client.callTool({ name: tool, arguments: args }));
            if (/failed to process|internal_error/.test(t)) failed.push(`${tool}: ${words}`);
          }
        }
    }
    expect(failed).toEqual([]);
  });
});
