import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentTicket } from "@/server/connectors/helpdesk/capabilities/comment-ticket";
import type { AnyCapability } from "@/server/connectors/sdk/define-capability";
import { afterSales } from "@/server/connectors/shop/capabilities/after-sales";
import { allPatchFields } from "@/server/engine/describe-inputs";
import { fieldMeant } from "@/server/engine/field-meant";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A patch field the capability does not have names the field most likely meant, by what the
 * capability declares (names and descriptions), and takes nothing. Round 7's model sent
 * `comment` to comment_ticket and read only "The best match does not take comment".
 */
describe("a patch field the capability lacks: the field meant", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("by description, by name, or as the one free-text field; none for a value no field takes", () => {
    const all = (c: AnyCapability) => allPatchFields(c);
    const text = "Your SAVE5 code is fixed";
    expect(fieldMeant(commentTicket, "comment", text, all(commentTicket))?.field).toBe("body");
    expect(fieldMeant(commentTicket, "note", text, all(commentTicket))?.field).toBe("body");
    expect(fieldMeant(commentTicket, "ticket", "tkt_1", all(commentTicket))?.field).toBe("ticket_id");
    expect(fieldMeant(afterSales, "why", "changed my mind", all(afterSales))?.field).toBe("reason");
    // A value the field's schema refuses is not meant for it.
    expect(fieldMeant(commentTicket, "comment", 5, all(commentTicket))).toBeUndefined();
  });

  it("by words or by id, the answer names the field and nothing starts", async () => {
    const sam = await w.connect(w.keys.sam);
    const before = await w.db.action.count();
    for (const args of [
      { intent: "add a comment to the coupon ticket", patch: { comment: "Your SAVE5 code is fixed" } },
      { capability: "comment_ticket", entity_id: "tkt_1", patch: { comment: "Your SAVE5 code is fixed" } },
    ]) {
      const res = await sam.callTool({ name: "start_action", arguments: args });
      expect(sc(res)).toMatchObject({
        outcome: "rejected",
        reason: args.capability ? "field_not_allowed" : "no_capability_takes_fields",
      });
      expect(text(res)).toContain(
        'comment_ticket has no field comment; the one meant is likely body ("The comment, exactly as the user worded it"): send the value as body; nothing was taken',
      );
    }
    expect(await w.db.action.count()).toBe(before);
  });

  it("the rejection offers the same call with each field where it was meant, the user's words kept", async () => {
    const sam = await w.connect(w.keys.sam);
    const intent = "add a comment to the coupon ticket";
    const byWords = await sam.callTool({
      name: "start_action",
      arguments: { intent, patch: { comment: "Your SAVE5 code is fixed" } },
    });
    // Round 9: the offered restart was `start_action {"capability":"comment_ticket"}`: words and value gone.
    expect(text(byWords)).toContain(
      `start_action {"capability":"comment_ticket","intent":"${intent}","patch":{"body":"Your SAVE5 code is fixed"}}`,
    );
    const byId = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_1",
        patch: { comment: "Fixed", internal: true },
      },
    });
    expect(text(byId)).toContain(
      'start_action {"capability":"comment_ticket","entity_id":"tkt_1","patch":{"body":"Fixed","internal":true}}',
    );
    // The corrected call does what it says.
    const again = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_1",
        patch: { body: "Fixed", internal: true },
      },
    });
    expect(sc(again)).toMatchObject({ outcome: "applied" });
    // On an advance too: the same advance, first among the next steps.
    const started = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { capability: "comment_ticket", entity_id: "tkt_1" },
      }),
    ) as unknown as { action_id: string; version: number };
    const advanced = await sam.callTool({
      name: "advance_action",
      arguments: { action_id: started.action_id, version: started.version, patch: { comment: "Fixed" } },
    });
    expect(sc(advanced)).toMatchObject({ outcome: "rejected", reason: "field_not_allowed" });
    expect(text(advanced)).toMatch(
      new RegExp(
        `^next:\\n- advance_action \\{"action_id":"${started.action_id}","version":${started.version},"patch":\\{"body":"Fixed"\\}\\}`,
        "m",
      ),
    );
    // A field nothing means keeps the plain restart, which names no patch.
    const unclear = await sam.callTool({
      name: "start_action",
      arguments: { capability: "comment_ticket", entity_id: "tkt_1", patch: { colour: 5 } },
    });
    expect(text(unclear)).toContain(
      'start_action {"capability":"comment_ticket","entity_id":"tkt_1"} — Start again',
    );
  });
});
