import { afterAll, beforeAll, beforeEach, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

let w: McpWorld;
beforeAll(async () => {
  w = await createMcpWorld("sqlite");
}, 60_000);
afterAll(async () => {
  await w?.close();
});
beforeEach(() => w.legacy.reset());
const comments = async (id: string) =>
  (
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as { data: { body: string; internal: boolean }[] }
  ).data;
const short = (o: any) => {
  const s = sc(o) as any;
  return JSON.stringify({
    oc: s.outcome,
    st: s.status,
    cap: s.capability,
    ent: s.entity?.id,
    fw: s.from_words,
    also: s.also_asked,
    done: s.also_done,
    reason: s.reason,
  });
};
const flat = (o: any, n = 500) => text(o).slice(0, n).replace(/\n/g, " | ");

it("comments", async () => {
  const sam = await w.connect(w.keys.sam);
  const B = "Card fraud suspected.";
  for (const intent of [
    `Add a comment on tkt_3 since the last comment the customer can see was wrong: ${B}`,
    `Add a comment on tkt_3 — in no case should it be visible to the customer: ${B}`,
    `Comment on tkt_3 to replace the comment the customer can see with an internal one: ${B}`,
    `Add a comment on tkt_3 correcting the comment the customer can see: ${B}`,
    `Add a comment on tkt_3, which must never be made fully visible to the customer: ${B}`,
    `Add a comment on tkt_3 only staff see, as opposed to one visible to the customer: ${B}`,
    `Add a comment on tkt_3; it should by no means be visible to the customer: ${B}`,
  ]) {
    await w.legacy.reset();
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    const cs = [...(await comments("tkt_3")), ...(await comments("tkt_9"))].filter((c) =>
      c.body.startsWith("Card fraud"),
    );
    console.log(
      "COMMENT",
      intent,
      "\n  =>",
      short(out),
      "posted:",
      JSON.stringify(cs.map((c) => c.internal)),
    );
  }
}, 180_000);

it("starts", async () => {
  const alice = await w.connect(w.keys.alice);
  for (const intent of [
    "Check an order's shipping status for me",
    "Buy a mug to replace the broken one in my kettle order",
    "Place a claim on my delivered kettle order, the kettle arrived broken",
    "Purchase more days to pay my kettle order",
  ]) {
    const out = await alice.callTool({ name: "start_action", arguments: { intent } });
    console.log("START", intent, "\n  =>", short(out), flat(out, 300));
  }
}, 180_000);

it("sentwords", async () => {
  const sam = await w.connect(w.keys.sam);
  const alice = await w.connect(w.keys.alice);
  const cases: [any, any][] = [
    [
      sam,
      {
        capability: "comment_ticket",
        entity_id: "tkt_5",
        intent: "Add an internal note on tkt_5, and reopen it",
        patch: { body: "Reopen", internal: true },
      },
    ],
    [
      sam,
      {
        capability: "comment_ticket",
        entity_id: "tkt_1",
        intent: "Add an internal note on tkt_1: urgent. And urgent",
        patch: { body: "Urgent", internal: true },
      },
    ],
    [
      alice,
      {
        capability: "checkout",
        intent: "Buy one mug and delete the card",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "express",
          payment_type: "card",
        },
      },
    ],
    [
      alice,
      {
        capability: "checkout",
        intent: "Buy one mug and show my balance",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    ],
    [
      alice,
      {
        capability: "checkout",
        intent: "Buy one mug and cancel the balance",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    ],
    [
      alice,
      {
        capability: "checkout",
        intent: "Buy one mug, and make ord_pending express",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "express",
          payment_type: "card",
        },
      },
    ],
    [
      alice,
      {
        capability: "checkout",
        intent: "Buy one mug, and express",
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "addr_alice_home",
          shipping_method: "express",
          payment_type: "card",
        },
      },
    ],
  ];
  for (const [c, args] of cases) {
    const out = await c.callTool({ name: "start_action", arguments: args });
    console.log("SENT", args.intent, JSON.stringify(args.patch), "\n  =>", short(out), flat(out, 400));
  }
}, 180_000);

it("placeholder", async () => {
  const sam = await w.connect(w.keys.sam, { faces: "browse" });
  const agentId = w.agent.sam.agentId as string;
  const rule = (verb: string, pattern: string, decision: string) =>
    w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: agentId,
        verb,
        pattern,
        decision,
        position: -50,
      },
    });
  await rule("navigate", "helpdesk://ticket/tkt_2", "deny");
  await rule("navigate", "helpdesk://ticket/tkt_2/**", "deny");
  try {
    const s = await sam.callTool({ name: "search", arguments: { query: "headphones" } });
    console.log("PH search shows tkt_2:", text(s).includes("tkt_2"));
    const out = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/{id}/priority",
        fields: { user_words: "Make the headphones ticket urgent" },
      },
    });
    console.log("PH submit", short(out), flat(out, 600));
    console.log("PH tkt_2", JSON.stringify(await legacyJson(w.legacy, "tickets/tkt_2")).slice(0, 200));
  } finally {
    await w.db.permissionRule.deleteMany({ where: { position: -50 } });
  }
  // once grant + dry runs
  await rule("start", "capability:change_ticket_priority", "ask");
  const grant = await w.db.permissionRequest.create({
    data: {
      tenantId: "acme",
      agentId,
      verb: "start",
      target: "capability:change_ticket_priority",
      status: "granted",
      grantMode: "once",
    },
  });
  try {
    const t = await w.connect(w.keys.sam);
    for (const id of ["tkt_1", "tkt_2", "tkt_3"]) {
      const out = await t.callTool({
        name: "start_action",
        arguments: { capability: "change_ticket_priority", entity_id: id, dry_run: true },
      });
      console.log(
        "DRY",
        id,
        short(out),
        flat(out, 200),
        (await w.db.permissionRequest.findUnique({ where: { id: grant.id } }))?.status,
      );
    }
    const real = await t.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_1", patch: { priority: "low" } },
    });
    console.log(
      "REAL",
      short(real),
      (await w.db.permissionRequest.findUnique({ where: { id: grant.id } }))?.status,
    );
    const real2 = await t.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_2", patch: { priority: "low" } },
    });
    console.log("REAL2", short(real2));
  } finally {
    await w.db.permissionRule.deleteMany({ where: { position: -50 } });
    await w.db.permissionRequest.deleteMany({ where: { agentId } });
  }
}, 180_000);
