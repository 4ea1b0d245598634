import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentTicket } from "@/server/connectors/helpdesk/capabilities/comment-ticket";
import { closestField } from "@/server/connectors/sdk/closest-field";
import type { AnyCapability } from "@/server/connectors/sdk/define-capability";
import { afterSales } from "@/server/connectors/shop/capabilities/after-sales";
import { checkout } from "@/server/connectors/shop/capabilities/checkout";
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

  it("by description, by name, by spelling, or as the one free-text field; none for a value no field takes", () => {
    const all = (c: AnyCapability) => allPatchFields(c);
    const text = "Your SAVE5 code is fixed";
    expect(fieldMeant(commentTicket, "comment", text, all(commentTicket))?.field).toBe("body");
    expect(fieldMeant(commentTicket, "note", text, all(commentTicket))?.field).toBe("body");
    expect(fieldMeant(commentTicket, "ticket", "tkt_1", all(commentTicket))?.field).toBe("ticket_id");
    expect(fieldMeant(afterSales, "why", "changed my mind", all(afterSales))?.field).toBe("reason");
    // A value the field's schema refuses is not meant for it.
    expect(fieldMeant(commentTicket, "comment", 5, all(commentTicket))).toBeUndefined();
    // A slip of the keyboard (one edit, a swap of neighbours counted once) names the field;
    // a field of another capability names none (issue 23).
    expect(fieldMeant(checkout, "adress_id", "Office", all(checkout))?.field).toBe("address_id");
    expect(fieldMeant(checkout, "paymnet_type", "card", all(checkout))?.field).toBe("payment_type");
    expect(fieldMeant(commentTicket, "coment", text, all(commentTicket))?.field).toBe("body");
    expect(fieldMeant(commentTicket, "shipping_method", "standard", all(commentTicket))).toBeUndefined();
    // The same rule for an imported form's fields, which come with no schema to check a value by.
    const fields = [{ name: "priority" }, { name: "status" }, { name: "requester_email" }];
    expect(closestField("priorty", "high", fields)?.field).toBe("priority");
    expect(closestField("email", "a@b.c", fields)?.field).toBe("requester_email");
    expect(closestField("comment", "x", fields)).toBeUndefined();
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
        'comment_ticket has no field comment; closest: body ("The comment, exactly as the user worded it"). Accepted: ticket_id, body, internal. Nothing was applied',
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
    // A field nothing means: the same start without it, which then names no patch.
    const unclear = await sam.callTool({
      name: "start_action",
      arguments: { capability: "comment_ticket", entity_id: "tkt_1", patch: { colour: 5 } },
    });
    expect(text(unclear)).toContain(
      'start_action {"capability":"comment_ticket","entity_id":"tkt_1"} — The same start without colour',
    );
  });

  it("a misspelt field or another capability's: one short typed answer, nothing applied, the rest of the patch kept in the next call (issue 23)", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: [{ product_id: "prod_mug", quantity: 1 }] } },
      }),
    ) as unknown as { action_id: string; version: number };
    const misspelt = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { adress_id: "Office", shipping_method: "standard" },
      },
    });
    expect(sc(misspelt)).toMatchObject({
      outcome: "rejected",
      reason: "field_not_allowed",
      version: started.version,
      validation_errors: [{ field: "adress_id", code: "field_not_allowed", closest: "address_id" }],
    });
    const resend = `advance_action {"action_id":"${started.action_id}","version":${started.version},"patch":{"address_id":"Office","shipping_method":"standard"}} — The same advance with address_id for adress_id`;
    // The whole answer: what was wrong, the field meant, the fields accepted, that nothing was
    // applied, and the one call that resends it all. Where the action stands did not change, so
    // it is not said again (470 characters before, and no field named).
    expect(text(misspelt)).toBe(
      [
        "rejected: checkout has no field adress_id; closest: address_id. Accepted: items, from_cart, address_id, shipping_method, coupon_code, payment_type. Nothing was applied",
        `action \`${started.action_id}\` · version ${started.version} · open`,
        "reason: field_not_allowed",
        "next:",
        `- ${resend}`,
      ].join("\n"),
    );
    // Nothing was applied: the valid shipping_method waits in the resent call, not in the action.
    const context = sc(
      await alice.callTool({ name: "get_context", arguments: { action_id: started.action_id } }),
    );
    expect(context.version).toBe(started.version);
    expect(context.applied).not.toContain("shipping_method");
    const fixed = sc(
      await alice.callTool({
        name: "advance_action",
        arguments: {
          action_id: started.action_id,
          version: started.version,
          patch: { address_id: "Office", shipping_method: "standard" },
        },
      }),
    );
    expect(fixed.applied).toEqual(expect.arrayContaining(["address_id", "shipping_method"]));

    // A field of another capability: named, no field guessed, the fields accepted, and the same
    // advance without it (the valid rest kept).
    const sam = await w.connect(w.keys.sam);
    const comment = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { capability: "comment_ticket", entity_id: "tkt_1" },
      }),
    ) as unknown as { action_id: string; version: number };
    const foreign = await sam.callTool({
      name: "advance_action",
      arguments: {
        action_id: comment.action_id,
        version: comment.version,
        patch: { shipping_method: "standard", internal: true },
      },
    });
    expect(sc(foreign).validation_errors).toEqual([
      expect.not.objectContaining({ closest: expect.anything() }),
    ]);
    expect(text(foreign)).toMatch(
      /^rejected: comment_ticket has no field shipping_method\. Accepted: body, internal\. Nothing was applied$/m,
    );
    expect(text(foreign)).toContain(
      `- advance_action {"action_id":"${comment.action_id}","version":${comment.version},"patch":{"internal":true}} — The same advance without shipping_method`,
    );
  });
});
