import { afterAll, beforeAll, describe, it } from "vitest";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import {
  check,
  confirmUnapproved,
  decideAs,
  execute,
  type Row,
  ready,
  staleAdvance,
  start,
  startRaw,
  startThenAdvance,
  ticketChangedUnderApproval,
  verified,
  withRule,
} from "./capability-table-helpers";

/**
 * The helpdesk's generic PATCH /tickets/{id}, split into four narrow capabilities, each with
 * ≥10 valid, ≥10 ambiguous or incomplete, ≥10 unauthorized or stale requests. Sam is support.
 */

type Table = Record<"valid" | "ambiguous" | "unauthorized", Row[]>;

const assign: Table = {
  valid: [
    [
      "same team, no approval",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      { ...ready, node: "CONFIRM_ASSIGNMENT", status: "open" },
    ],
    [
      "across teams needs approval",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }),
      { ...ready, status: "awaiting_approval" },
    ],
    [
      "shipping to shipping",
      start("sam", "assign_ticket", "tkt_2", { assignee_id: "tm_sara" }),
      { ...ready, status: "open" },
    ],
    [
      "shipping ticket to billing",
      start("sam", "assign_ticket", "tkt_2", { assignee_id: "tm_bella" }),
      { ...ready, status: "awaiting_approval" },
    ],
    [
      "a pending ticket across teams",
      start("sam", "assign_ticket", "tkt_3", { assignee_id: "tm_sid" }),
      ready,
    ],
    [
      "a pending ticket in its team",
      start("sam", "assign_ticket", "tkt_4", { assignee_id: "tm_sid" }),
      ready,
    ],
    ["unassigned urgent ticket", start("sam", "assign_ticket", "tkt_9", { assignee_id: "tm_sara" }), ready],
    ["admin assigning", start("adam", "assign_ticket", "tkt_9", { assignee_id: "tm_sid" }), ready],
    ["two steps", startThenAdvance("sam", "assign_ticket", "tkt_1", {}, { assignee_id: "tm_bella" }), ready],
    [
      "dry run",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }, { dry_run: true }),
      { outcome: "preview" },
    ],
    [
      "same team executes and verifies",
      execute("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      verified,
    ],
    [
      "across teams: approved by an admin (the policy's approver), then executed",
      execute("sam", "assign_ticket", "tkt_9", { assignee_id: "tm_bella" }, "adam"),
      verified,
    ],
  ],
  ambiguous: [
    ["no ticket", start("sam", "assign_ticket"), { outcome: "input_required", missing: ["ticket_id"] }],
    [
      "no assignee",
      start("sam", "assign_ticket", "tkt_1"),
      { outcome: "input_required", node: "ASSIGNEE", missing: ["assignee_id"] },
    ],
    [
      "an unknown teammate",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_nobody" }),
      { outcome: "input_required", code: "unknown_teammate" },
    ],
    [
      "an inactive teammate",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bruno" }),
      { outcome: "input_required", code: "teammate_inactive" },
    ],
    [
      "already theirs",
      start("sam", "assign_ticket", "tkt_2", { assignee_id: "tm_sid" }),
      { outcome: "input_required", code: "already_assigned" },
    ],
    [
      "a resolved ticket",
      start("sam", "assign_ticket", "tkt_5", { assignee_id: "tm_bella" }),
      { outcome: "input_required", code: "ticket_not_open" },
    ],
    [
      "a closed ticket",
      start("sam", "assign_ticket", "tkt_7", { assignee_id: "tm_bella" }),
      { outcome: "input_required", code: "ticket_not_open" },
    ],
    [
      "a subject instead of an id",
      startRaw("sam", { capability: "assign_ticket", entity_id: "Charged twice?" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a number for the assignee",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: 7 }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "an empty assignee",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "" }),
      { outcome: "input_required", missing: ["assignee_id"] },
    ],
  ],
  unauthorized: [
    [
      "a member's agent",
      start("alice", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's member",
      start("gina", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's ticket",
      start("sam", "assign_ticket", "tkt_gx_1", { assignee_id: "tm_bella" }),
      { outcome: "not_found" },
    ],
    [
      "agent in the arguments",
      startRaw("sam", { capability: "assign_ticket", entity_id: "tkt_1", agent_id: "x" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a stale version",
      staleAdvance("sam", "assign_ticket", "tkt_1", {}, { assignee_id: "tm_bella" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "assign_ticket", "tkt_1", {}, { ticket_id: "tkt_2" }),
      { outcome: "rejected", code: "field_locked" },
    ],
    [
      "changing the status through assign",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella", status: "closed" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "cross-team confirm without approval",
      confirmUnapproved("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }),
      { outcome: "rejected", reason: "approval_pending" },
    ],
    [
      "a member approving support's action",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "person", who: "alice" }),
      { outcome: "not_found" },
    ],
    [
      "the agent approving itself",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "agent", who: "sam" }),
      { outcome: "rejected", reason: "person_required" },
    ],
    [
      "the requester approving their own cross-team move",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "person", who: "sam" }),
      { outcome: "rejected", reason: "not_your_approval", says: /^Only an admin can decide this action/ },
    ],
    [
      "the ticket changed after approval",
      ticketChangedUnderApproval("sam", "assign_ticket", "tkt_3", { assignee_id: "tm_sid" }, "adam"),
      { outcome: "conflict", reason: "changed_since_approval" },
    ],
  ],
};

const priority: Table = {
  valid: [
    [
      "high → urgent",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "urgent" }),
      { ...ready, node: "CONFIRM_PRIORITY", status: "open" },
    ],
    ["high → low", start("sam", "change_ticket_priority", "tkt_1", { priority: "low" }), ready],
    ["normal → high", start("sam", "change_ticket_priority", "tkt_2", { priority: "high" }), ready],
    [
      "pending ticket → urgent",
      start("sam", "change_ticket_priority", "tkt_3", { priority: "urgent" }),
      ready,
    ],
    ["low → normal", start("sam", "change_ticket_priority", "tkt_4", { priority: "normal" }), ready],
    [
      "a resolved ticket keeps a priority",
      start("sam", "change_ticket_priority", "tkt_5", { priority: "low" }),
      ready,
    ],
    ["urgent → high", start("sam", "change_ticket_priority", "tkt_9", { priority: "high" }), ready],
    ["admin", start("adam", "change_ticket_priority", "tkt_2", { priority: "low" }), ready],
    [
      "two steps",
      startThenAdvance("sam", "change_ticket_priority", "tkt_6", {}, { priority: "normal" }),
      ready,
    ],
    [
      "dry run",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "urgent" }, { dry_run: true }),
      { outcome: "preview" },
    ],
    [
      "executes and verifies",
      execute("sam", "change_ticket_priority", "tkt_4", { priority: "high" }),
      verified,
    ],
  ],
  ambiguous: [
    [
      "no priority",
      start("sam", "change_ticket_priority", "tkt_1"),
      { outcome: "input_required", missing: ["priority"] },
    ],
    [
      "the same priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "high" }),
      { outcome: "input_required", code: "same_priority" },
    ],
    [
      "not a priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "critical" }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "a closed ticket",
      start("sam", "change_ticket_priority", "tkt_7", { priority: "high" }),
      { outcome: "input_required", code: "ticket_closed" },
    ],
    [
      "another closed ticket",
      start("sam", "change_ticket_priority", "tkt_8", { priority: "low" }),
      { outcome: "input_required", code: "ticket_closed" },
    ],
    [
      "no ticket",
      start("sam", "change_ticket_priority"),
      { outcome: "input_required", missing: ["ticket_id"] },
    ],
    [
      "a ticket that does not exist",
      start("sam", "change_ticket_priority", "tkt_999", { priority: "low" }),
      { outcome: "not_found" },
    ],
    [
      "a number for a priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: 3 }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "an empty priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "" }),
      { outcome: "input_required", missing: ["priority"] },
    ],
    [
      "upper case",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "URGENT" }),
      { outcome: "input_required", code: "invalid_value" },
    ],
  ],
  unauthorized: [
    [
      "a member's agent",
      start("alice", "change_ticket_priority", "tkt_1", { priority: "urgent" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's member",
      start("gina", "change_ticket_priority", "tkt_gx_1", { priority: "urgent" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's ticket",
      start("sam", "change_ticket_priority", "tkt_gx_1", { priority: "urgent" }),
      { outcome: "not_found" },
    ],
    [
      "tenant in the arguments",
      startRaw("sam", { capability: "change_ticket_priority", tenant: "globex" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a stale version",
      staleAdvance("sam", "change_ticket_priority", "tkt_2", {}, { priority: "high" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "change_ticket_priority", "tkt_2", {}, { ticket_id: "tkt_3" }),
      { outcome: "rejected", code: "field_locked" },
    ],
    [
      "assigning through priority",
      start("sam", "change_ticket_priority", "tkt_2", { priority: "high", assignee_id: "tm_sara" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "a deny rule",
      withRule(
        "sam",
        { verb: "start", pattern: "capability:change_ticket_priority", decision: "deny" },
        start("sam", "change_ticket_priority", "tkt_2", { priority: "high" }),
      ),
      { outcome: "rejected", reason: "permission_denied" },
    ],
    [
      "confirm before a priority is given",
      confirmUnapproved("sam", "change_ticket_priority", "tkt_2", {}),
      { outcome: "rejected", reason: "not_in_next_actions" },
    ],
    [
      "another agent confirming",
      confirmUnapproved("sam", "change_ticket_priority", "tkt_2", { priority: "high" }, "adam"),
      { outcome: "not_found" },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "change_ticket_priority", "tkt_2", { priority: "urgent" }),
      { outcome: "conflict", reason: "changed_since_approval" },
    ],
  ],
};

const resolve: Table = {
  valid: [
    [
      "open ticket",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "Refunded the duplicate charge." }),
      { ...ready, node: "CONFIRM_RESOLVE" },
    ],
    [
      "open shipping ticket",
      start("sam", "resolve_ticket", "tkt_2", { resolution: "Carrier confirmed delivery tomorrow." }),
      ready,
    ],
    [
      "pending ticket",
      start("sam", "resolve_ticket", "tkt_3", { resolution: "Customer accepted a return label." }),
      ready,
    ],
    [
      "another pending ticket",
      start("sam", "resolve_ticket", "tkt_4", { resolution: "Address updated before shipment." }),
      ready,
    ],
    [
      "urgent ticket",
      start("sam", "resolve_ticket", "tkt_9", { resolution: "Exchange for size L created." }),
      ready,
    ],
    [
      "admin",
      start("adam", "resolve_ticket", "tkt_1", { resolution: "Handled by the admin directly." }),
      ready,
    ],
    [
      "two steps",
      startThenAdvance(
        "sam",
        "resolve_ticket",
        "tkt_1",
        {},
        { resolution: "Refunded the duplicate charge." },
      ),
      ready,
    ],
    [
      "dry run",
      start(
        "sam",
        "resolve_ticket",
        "tkt_2",
        { resolution: "Carrier confirmed delivery." },
        { dry_run: true },
      ),
      { outcome: "preview" },
    ],
    ["a long resolution", start("sam", "resolve_ticket", "tkt_3", { resolution: "x".repeat(1500) }), ready],
    [
      "resolution in Chinese",
      start("sam", "resolve_ticket", "tkt_4", { resolution: "已为客户更新地址并确认发货时间。" }),
      ready,
    ],
    [
      "executes and verifies",
      execute("sam", "resolve_ticket", "tkt_3", { resolution: "Customer accepted a return label." }),
      verified,
    ],
  ],
  ambiguous: [
    [
      "no resolution",
      start("sam", "resolve_ticket", "tkt_1"),
      { outcome: "input_required", node: "RESOLUTION", missing: ["resolution"] },
    ],
    [
      "too short to explain anything",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "done" }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "already resolved",
      start("sam", "resolve_ticket", "tkt_5", { resolution: "Resolved again somehow." }),
      { outcome: "input_required", code: "ticket_already_resolved" },
    ],
    [
      "closed",
      start("sam", "resolve_ticket", "tkt_7", { resolution: "Resolved again somehow." }),
      { outcome: "input_required", code: "ticket_already_resolved" },
    ],
    [
      "another closed",
      start("sam", "resolve_ticket", "tkt_8", { resolution: "Resolved again somehow." }),
      { outcome: "input_required", code: "ticket_already_resolved" },
    ],
    ["no ticket", start("sam", "resolve_ticket"), { outcome: "input_required", missing: ["ticket_id"] }],
    [
      "too long",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "x".repeat(2001) }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "only spaces",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "     " }),
      { outcome: "input_required", missing: ["resolution"] },
    ],
    [
      "a number",
      start("sam", "resolve_ticket", "tkt_1", { resolution: 42 }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "a ticket that does not exist",
      start("sam", "resolve_ticket", "tkt_404", { resolution: "Resolved it all." }),
      { outcome: "not_found" },
    ],
  ],
  unauthorized: [
    [
      "a member's agent",
      start("alice", "resolve_ticket", "tkt_1", { resolution: "I fixed it myself." }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's member",
      start("gina", "resolve_ticket", "tkt_1", { resolution: "I fixed it myself." }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's ticket",
      start("sam", "resolve_ticket", "tkt_gx_1", { resolution: "Resolved it all." }),
      { outcome: "not_found" },
    ],
    [
      "user in the arguments",
      startRaw("sam", { capability: "resolve_ticket", user: "adam" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a stale version",
      staleAdvance("sam", "resolve_ticket", "tkt_2", {}, { resolution: "Carrier confirmed delivery." }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "resolve_ticket", "tkt_2", {}, { ticket_id: "tkt_1" }),
      { outcome: "rejected", code: "field_locked" },
    ],
    [
      "setting the status directly",
      start("sam", "resolve_ticket", "tkt_2", { status: "closed" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "an ask rule",
      withRule(
        "sam",
        { verb: "start", pattern: "capability:resolve_ticket", decision: "ask" },
        start("sam", "resolve_ticket", "tkt_2"),
      ),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "confirm without a resolution",
      confirmUnapproved("sam", "resolve_ticket", "tkt_2", {}),
      { outcome: "rejected", reason: "not_in_next_actions" },
    ],
    [
      "another agent confirming",
      confirmUnapproved(
        "sam",
        "resolve_ticket",
        "tkt_2",
        { resolution: "Carrier confirmed delivery." },
        "alice",
      ),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "resolve_ticket", "tkt_4", {
        resolution: "Address updated before shipment.",
      }),
      { outcome: "conflict", reason: "changed_since_approval" },
    ],
  ],
};

const reopen: Table = {
  valid: [
    [
      "a resolved ticket",
      start("sam", "reopen_ticket", "tkt_5", { reason: "Discount missing again" }),
      { ...ready, node: "CONFIRM_REOPEN" },
    ],
    [
      "another resolved ticket",
      start("sam", "reopen_ticket", "tkt_6", { reason: "Replacement also damaged" }),
      ready,
    ],
    [
      "a closed ticket",
      start("sam", "reopen_ticket", "tkt_7", { reason: "Invoice had the wrong VAT" }),
      ready,
    ],
    [
      "another closed ticket",
      start("sam", "reopen_ticket", "tkt_8", { reason: "Customer wrote back" }),
      ready,
    ],
    ["admin", start("adam", "reopen_ticket", "tkt_5", { reason: "Audit found an issue" }), ready],
    [
      "two steps",
      startThenAdvance("sam", "reopen_ticket", "tkt_6", {}, { reason: "Replacement also damaged" }),
      ready,
    ],
    [
      "dry run",
      start("sam", "reopen_ticket", "tkt_7", { reason: "Invoice wrong" }, { dry_run: true }),
      { outcome: "preview" },
    ],
    ["reason in Chinese", start("sam", "reopen_ticket", "tkt_8", { reason: "客户说问题没有解决" }), ready],
    ["short but enough", start("sam", "reopen_ticket", "tkt_5", { reason: "bug" }), ready],
    ["a long reason", start("sam", "reopen_ticket", "tkt_6", { reason: "y".repeat(900) }), ready],
    [
      "executes and verifies",
      execute("sam", "reopen_ticket", "tkt_6", { reason: "Replacement also damaged" }),
      verified,
    ],
  ],
  ambiguous: [
    [
      "an open ticket",
      start("sam", "reopen_ticket", "tkt_1", { reason: "again" }),
      { outcome: "input_required", code: "ticket_not_resolved" },
    ],
    [
      "a pending ticket",
      start("sam", "reopen_ticket", "tkt_3", { reason: "again" }),
      { outcome: "input_required", code: "ticket_not_resolved" },
    ],
    [
      "no reason",
      start("sam", "reopen_ticket", "tkt_5"),
      { outcome: "input_required", node: "REASON", missing: ["reason"] },
    ],
    [
      "a one-letter reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: "x" }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    ["no ticket", start("sam", "reopen_ticket"), { outcome: "input_required", missing: ["ticket_id"] }],
    [
      "a reason too long",
      start("sam", "reopen_ticket", "tkt_5", { reason: "z".repeat(1001) }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "a list as reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: ["a", "b"] }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "an empty reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: "" }),
      { outcome: "input_required", missing: ["reason"] },
    ],
    [
      "an urgent open ticket",
      start("sam", "reopen_ticket", "tkt_9", { reason: "again" }),
      { outcome: "input_required", code: "ticket_not_resolved" },
    ],
    [
      "a ticket that does not exist",
      start("sam", "reopen_ticket", "tkt_0", { reason: "again" }),
      { outcome: "not_found" },
    ],
  ],
  unauthorized: [
    [
      "a member's agent",
      start("alice", "reopen_ticket", "tkt_5", { reason: "not fixed" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's member",
      start("gina", "reopen_ticket", "tkt_5", { reason: "not fixed" }),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant's ticket",
      start("sam", "reopen_ticket", "tkt_gx_1", { reason: "not fixed" }),
      { outcome: "not_found" },
    ],
    [
      "role in the arguments",
      startRaw("sam", { capability: "reopen_ticket", role: "admin" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a stale version",
      staleAdvance("sam", "reopen_ticket", "tkt_7", {}, { reason: "not fixed" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "reopen_ticket", "tkt_7", {}, { ticket_id: "tkt_8" }),
      { outcome: "rejected", code: "field_locked" },
    ],
    [
      "setting the priority through reopen",
      start("sam", "reopen_ticket", "tkt_7", { priority: "urgent" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "a deny rule for every confirm",
      withRule(
        "sam",
        { verb: "confirm", pattern: "**", decision: "deny" },
        confirmUnapproved("sam", "reopen_ticket", "tkt_7", { reason: "not fixed" }),
      ),
      { outcome: "rejected", reason: "permission_denied" },
    ],
    [
      "confirm without a reason",
      confirmUnapproved("sam", "reopen_ticket", "tkt_7", {}),
      { outcome: "rejected", reason: "not_in_next_actions" },
    ],
    [
      "another agent confirming",
      confirmUnapproved("sam", "reopen_ticket", "tkt_7", { reason: "not fixed" }, "adam"),
      { outcome: "not_found" },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "reopen_ticket", "tkt_8", { reason: "Customer wrote back" }),
      { outcome: "conflict", reason: "changed_since_approval" },
    ],
  ],
};

const suites = {
  assign_ticket: assign,
  change_ticket_priority: priority,
  resolve_ticket: resolve,
  reopen_ticket: reopen,
};

describeEachProvider("helpdesk write capabilities, table-driven (%s, real legacy service)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  for (const [capability, table] of Object.entries(suites)) {
    for (const kind of ["valid", "ambiguous", "unauthorized"] as const) {
      describe(`${capability} — ${kind}`, () => {
        beforeAll(async () => w.legacy.reset());
        it(`has at least 10 ${kind} cases`, () => {
          if (table[kind].length < 10)
            throw new Error(`${capability}: only ${table[kind].length} ${kind} cases`);
        });
        for (const [name, run, expected] of table[kind]) it(name, async () => check(await run(w), expected));
      });
    }
  }
});
