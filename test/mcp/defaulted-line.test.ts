import { describe, expect, it } from "vitest";
import { defaultedLine } from "../../mcp/defaulted-text";

const same = (v: unknown) => v;

/**
 * A default with other choices is the agent's to ask about; one that is the only choice offered
 * leaves nothing to ask (set AZ: "ask them if it matters" beside the one teammate who could be
 * taken off a ticket sent a careful model to the user).
 */
describe("the defaults line", () => {
  it("names other choices, and asks", () => {
    expect(defaultedLine({ internal: { value: false, choices: [false, true] } }, same)).toBe(
      "defaults (the user named none; ask them if it matters): internal = false (other choices: `true`)",
    );
  });

  it("says a default that is the only choice on its own line, with nothing to ask", () => {
    const line = defaultedLine(
      {
        internal: { value: false, choices: [false, true] },
        assignee_id: { value: "tm_sid", choices: [{ id: "tm_sid", name: "Sid Shipping" }] },
      },
      same,
    );
    expect(line).toBe(
      "defaults (the user named none; ask them if it matters): internal = false (other choices: `true`)\nthe only choice (the user named none): assignee_id = tm_sid",
    );
    // No choices known: still asked about.
    expect(defaultedLine({ amount: { value: 700 } }, same)).toMatch(/^defaults \(the user named none; ask/);
  });
});
