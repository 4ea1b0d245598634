// stays-whole: a table-driven test: each row one business rule of the helpdesk's capabilities.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderOutcomeText } from "@/mcp/outcome-text";
import type { GatewayOutcome } from "@/server/gateway/create-gateway";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { peopleOfEveryRole } from "../tenancy/tenancy-world";
import {
  BUCKETS,
  bucketSizes,
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
 * The floor every bucket of every table keeps: what its distinct rules need today (the smallest
 * bucket, change_ticket_priority's incomplete one, holds 6 since a start on a ticket that cannot
 * take the change, or is already so, ends as refused), so a row dropped without thought is
 * seen. It is no target: a row that only repeats another's rule with another ticket or an
 * irrelevant value does not belong here, and the floor goes down when such rows leave.
 */
const MIN_CASES = 6;

/**
 * The helpdesk's generic PATCH /tickets/{id}, split into four narrow capabilities, each with
 * valid, incomplete and refused requests, one row per business rule. Sam is support.
 */

type Table = Record<"valid" | "incomplete" | "refused", Row[]>;

const assign: Table = {
  valid: [
    [
      "same team, no approval",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      {
        ...ready,
        node: "CONFIRM_ASSIGNMENT",
        status: "open",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_assignee: "tm_bella", to_team: "billing", cross_team: false },
      },
    ],
    [
      "across teams needs approval",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }),
      {
        ...ready,
        status: "awaiting_approval",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_assignee: "tm_sid", to_team: "shipping", cross_team: true },
      },
    ],
    [
      "shipping to shipping",
      start("sam", "assign_ticket", "tkt_2", { assignee_id: "tm_sara" }),
      {
        ...ready,
        status: "open",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_2", to_assignee: "tm_sara", to_team: "shipping", cross_team: false },
      },
    ],
    [
      "a pending ticket across teams",
      start("sam", "assign_ticket", "tkt_3", { assignee_id: "tm_sid" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_3", to_assignee: "tm_sid", to_team: "shipping", cross_team: true },
      },
    ],
    [
      "admin assigning",
      start("adam", "assign_ticket", "tkt_9", { assignee_id: "tm_sid" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_9", to_assignee: "tm_sid", to_team: "shipping", cross_team: false },
      },
    ],
    [
      "two steps",
      startThenAdvance("sam", "assign_ticket", "tkt_1", {}, { assignee_id: "tm_bella" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_assignee: "tm_bella", to_team: "billing", cross_team: false },
      },
    ],
    [
      "dry run",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }, { dry_run: true }),
      {
        outcome: "preview",
        next: ["start_action"],
        summary: { ticket_id: "tkt_1", to_assignee: "tm_bella", to_team: "billing", cross_team: false },
      },
    ],
    [
      "same team executes and verifies",
      execute("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      {
        ...verified,
        next: [],
        summary: { ticket_id: "tkt_1", to_assignee: "tm_bella", to_team: "billing", cross_team: false },
      },
    ],
    [
      "across teams: approved by an admin (the policy's approver), then executed",
      execute("sam", "assign_ticket", "tkt_9", { assignee_id: "tm_bella" }, "adam"),
      {
        ...verified,
        next: [],
        summary: { ticket_id: "tkt_9", to_assignee: "tm_bella", to_team: "billing", cross_team: true },
      },
    ],
  ],
  incomplete: [
    [
      "no ticket",
      start("sam", "assign_ticket"),
      { outcome: "input_required", missing: ["ticket_id"], next: ["advance_action"] },
    ],
    [
      "no assignee",
      start("sam", "assign_ticket", "tkt_1"),
      { outcome: "input_required", node: "ASSIGNEE", missing: ["assignee_id"], next: ["advance_action"] },
    ],
    [
      "already theirs, given at advance (the action's own question: open for another teammate)",
      startThenAdvance("sam", "assign_ticket", "tkt_2", {}, { assignee_id: "tm_sid" }),
      { outcome: "input_required", code: "already_assigned", status: "open", next: ["advance_action"] },
    ],
    [
      "an unknown teammate",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_nobody" }),
      { outcome: "input_required", code: "unknown_teammate", next: ["advance_action"] },
    ],
    [
      "an inactive teammate",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bruno" }),
      // The user's choice, closed: the start ends, nothing held (set X: a model cancelled it).
      { outcome: "rejected", status: "refused", code: "teammate_inactive", next: ["start_action"] },
    ],
    [
      "a number for the assignee",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: 7 }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "an empty assignee",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "" }),
      { outcome: "input_required", missing: ["assignee_id"], next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "a closed ticket",
      start("sam", "assign_ticket", "tkt_7", { assignee_id: "tm_bella" }),
      { outcome: "rejected", status: "refused", code: "ticket_not_open", next: ["start_action"] },
    ],
    [
      "a resolved ticket",
      start("sam", "assign_ticket", "tkt_5", { assignee_id: "tm_bella" }),
      { outcome: "rejected", status: "refused", code: "ticket_not_open", next: ["start_action"] },
    ],
    [
      "already theirs",
      start("sam", "assign_ticket", "tkt_2", { assignee_id: "tm_sid" }),
      {
        outcome: "rejected",
        status: "refused",
        code: "already_assigned",
        says: /nothing to change/,
        next: ["start_action"],
      },
    ],
    [
      "a member's agent",
      start("alice", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      // The role gate is the gateway's (it authorizes before the capability runs), the same for
      // the four capabilities: this row stands for all of them (same role across tenants: test/tenancy).
      "a member of another tenant: refused by role first, before the ticket is looked up",
      start("gina", "assign_ticket", "tkt_1", { assignee_id: "tm_bella" }),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "another tenant's ticket",
      start("sam", "assign_ticket", "tkt_gx_1", { assignee_id: "tm_bella" }),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "agent in the arguments",
      startRaw("sam", { capability: "assign_ticket", entity_id: "tkt_1", agent_id: "x" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "a stale version",
      staleAdvance("sam", "assign_ticket", "tkt_1", {}, { assignee_id: "tm_bella" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "assign_ticket", "tkt_1", {}, { ticket_id: "tkt_2" }),
      { outcome: "rejected", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "changing the status through assign",
      start("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_bella", status: "closed" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "cross-team confirm without approval",
      confirmUnapproved("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }),
      { outcome: "rejected", reason: "approval_pending", next: ["get_context", "confirm_action"] },
    ],
    [
      "a member approving support's action",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "person", who: "alice" }),
      { outcome: "not_found", next: [] },
    ],
    [
      "the agent approving itself",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "agent", who: "sam" }),
      { outcome: "rejected", reason: "person_required", next: [] },
    ],
    [
      "the requester approving their own cross-team move",
      decideAs("sam", "assign_ticket", "tkt_1", { assignee_id: "tm_sid" }, { kind: "person", who: "sam" }),
      {
        outcome: "rejected",
        reason: "not_your_approval",
        says: /^Only an admin can decide this action/,
        next: [],
      },
    ],
    [
      "the ticket changed while the person reviewed it",
      ticketChangedUnderApproval("sam", "assign_ticket", "tkt_3", { assignee_id: "tm_sid" }, "adam"),
      { outcome: "conflict", reason: "changed_since_approval", next: ["advance_action", "confirm_action"] },
    ],
    [
      "a subject instead of an id",
      startRaw("sam", { capability: "assign_ticket", entity_id: "Charged twice?" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
  ],
};

const priority: Table = {
  valid: [
    [
      "high → urgent",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "urgent" }),
      {
        ...ready,
        node: "CONFIRM_PRIORITY",
        status: "open",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", from_priority: "high", to_priority: "urgent" },
      },
    ],
    [
      // The person's word in any case is read through the field's own choices.
      "upper case",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "URGENT" }),
      {
        ...ready,
        node: "CONFIRM_PRIORITY",
        status: "open",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", from_priority: "high", to_priority: "urgent" },
      },
    ],
    [
      "high → low",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "low" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", from_priority: "high", to_priority: "low" },
      },
    ],
    [
      "pending ticket → urgent",
      start("sam", "change_ticket_priority", "tkt_3", { priority: "urgent" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_3", from_priority: "normal", to_priority: "urgent" },
      },
    ],
    [
      "a resolved ticket keeps a priority",
      start("sam", "change_ticket_priority", "tkt_5", { priority: "low" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_5", from_priority: "normal", to_priority: "low" },
      },
    ],
    [
      "admin",
      start("adam", "change_ticket_priority", "tkt_2", { priority: "low" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_2", from_priority: "normal", to_priority: "low" },
      },
    ],
    [
      "two steps",
      startThenAdvance("sam", "change_ticket_priority", "tkt_6", {}, { priority: "normal" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_6", from_priority: "high", to_priority: "normal" },
      },
    ],
    [
      "dry run",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "urgent" }, { dry_run: true }),
      {
        outcome: "preview",
        next: ["start_action"],
        summary: { ticket_id: "tkt_1", from_priority: "high", to_priority: "urgent" },
      },
    ],
    [
      "executes and verifies",
      execute("sam", "change_ticket_priority", "tkt_4", { priority: "high" }),
      { ...verified, next: [], summary: { ticket_id: "tkt_4", from_priority: "low", to_priority: "high" } },
    ],
  ],
  incomplete: [
    [
      "no priority",
      start("sam", "change_ticket_priority", "tkt_1"),
      { outcome: "input_required", missing: ["priority"], next: ["advance_action"] },
    ],
    [
      "the same priority, given at advance (the action's own question: open for another)",
      startThenAdvance("sam", "change_ticket_priority", "tkt_1", {}, { priority: "high" }),
      { outcome: "input_required", code: "same_priority", status: "open", next: ["advance_action"] },
    ],
    [
      "no ticket",
      start("sam", "change_ticket_priority"),
      { outcome: "input_required", missing: ["ticket_id"], next: ["advance_action"] },
    ],
    [
      "a number for a priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: 3 }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      // Words that name no priority are still refused, naming the field.
      "a word that is no priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "asap" }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "an empty priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "" }),
      { outcome: "input_required", missing: ["priority"], next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "a closed ticket",
      start("sam", "change_ticket_priority", "tkt_7", { priority: "high" }),
      { outcome: "rejected", status: "refused", code: "ticket_closed", next: ["start_action"] },
    ],
    [
      "the same priority",
      start("sam", "change_ticket_priority", "tkt_1", { priority: "high" }),
      {
        outcome: "rejected",
        status: "refused",
        code: "same_priority",
        says: /already high: nothing to change/,
        next: ["start_action"],
      },
    ],
    [
      "a member's agent",
      start("alice", "change_ticket_priority", "tkt_1", { priority: "urgent" }),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "another tenant's ticket",
      start("sam", "change_ticket_priority", "tkt_gx_1", { priority: "urgent" }),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "tenant in the arguments",
      startRaw("sam", { capability: "change_ticket_priority", tenant: "globex" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "a stale version",
      staleAdvance("sam", "change_ticket_priority", "tkt_2", {}, { priority: "high" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "change_ticket_priority", "tkt_2", {}, { ticket_id: "tkt_3" }),
      { outcome: "rejected", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "assigning through priority",
      start("sam", "change_ticket_priority", "tkt_2", { priority: "high", assignee_id: "tm_sara" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "a deny rule",
      withRule(
        "sam",
        { verb: "start", pattern: "capability:change_ticket_priority", decision: "deny" },
        start("sam", "change_ticket_priority", "tkt_2", { priority: "high" }),
      ),
      { outcome: "rejected", reason: "permission_denied", next: [] },
    ],
    [
      "confirm before a priority is given",
      confirmUnapproved("sam", "change_ticket_priority", "tkt_2", {}),
      { outcome: "rejected", reason: "not_in_next_actions", next: ["advance_action"] },
    ],
    [
      "another agent confirming",
      confirmUnapproved("sam", "change_ticket_priority", "tkt_2", { priority: "high" }, "adam"),
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "change_ticket_priority", "tkt_2", { priority: "urgent" }),
      { outcome: "conflict", reason: "changed_since_approval", next: ["advance_action", "confirm_action"] },
    ],
    [
      "a ticket that does not exist",
      start("sam", "change_ticket_priority", "tkt_999", { priority: "low" }),
      { outcome: "not_found", next: ["start_action"] },
    ],
  ],
};

const resolve: Table = {
  valid: [
    [
      "open ticket",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "Refunded the duplicate charge." }),
      {
        ...ready,
        node: "CONFIRM_RESOLVE",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_status: "resolved", resolution: "Refunded the duplicate charge." },
      },
    ],
    [
      "pending ticket",
      start("sam", "resolve_ticket", "tkt_3", { resolution: "Customer accepted a return label." }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          ticket_id: "tkt_3",
          to_status: "resolved",
          resolution: "Customer accepted a return label.",
        },
      },
    ],
    [
      "admin",
      start("adam", "resolve_ticket", "tkt_1", { resolution: "Handled by the admin directly." }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_status: "resolved", resolution: "Handled by the admin directly." },
      },
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
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_1", to_status: "resolved", resolution: "Refunded the duplicate charge." },
      },
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
      {
        outcome: "preview",
        next: ["start_action"],
        summary: { ticket_id: "tkt_2", to_status: "resolved", resolution: "Carrier confirmed delivery." },
      },
    ],
    [
      "a long resolution",
      start("sam", "resolve_ticket", "tkt_3", { resolution: "x".repeat(1500) }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          ticket_id: "tkt_3",
          to_status: "resolved",
          resolution:
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        },
      },
    ],
    [
      "resolution in Chinese",
      start("sam", "resolve_ticket", "tkt_4", { resolution: "已为客户更新地址并确认发货时间。" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          ticket_id: "tkt_4",
          to_status: "resolved",
          resolution: "已为客户更新地址并确认发货时间。",
        },
      },
    ],
    [
      "executes and verifies",
      execute("sam", "resolve_ticket", "tkt_3", { resolution: "Customer accepted a return label." }),
      {
        ...verified,
        next: [],
        summary: {
          ticket_id: "tkt_3",
          to_status: "resolved",
          resolution: "Customer accepted a return label.",
        },
      },
    ],
  ],
  incomplete: [
    [
      "no resolution",
      start("sam", "resolve_ticket", "tkt_1"),
      { outcome: "input_required", node: "RESOLUTION", missing: ["resolution"], next: ["advance_action"] },
    ],
    [
      "a resolved ticket picked at advance (open for another ticket)",
      startThenAdvance("sam", "resolve_ticket", undefined, {}, { ticket_id: "tkt_5" }),
      {
        outcome: "input_required",
        code: "ticket_already_resolved",
        status: "open",
        next: ["advance_action"],
      },
    ],
    [
      "too short to explain anything",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "done" }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "no ticket",
      start("sam", "resolve_ticket"),
      { outcome: "input_required", missing: ["ticket_id"], next: ["advance_action"] },
    ],
    [
      "too long",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "x".repeat(2001) }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "only spaces",
      start("sam", "resolve_ticket", "tkt_1", { resolution: "     " }),
      { outcome: "input_required", missing: ["resolution"], next: ["advance_action"] },
    ],
    [
      "a number",
      start("sam", "resolve_ticket", "tkt_1", { resolution: 42 }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "closed",
      start("sam", "resolve_ticket", "tkt_7", { resolution: "Resolved again somehow." }),
      { outcome: "rejected", status: "refused", code: "ticket_already_resolved", next: ["start_action"] },
    ],
    [
      "already resolved",
      start("sam", "resolve_ticket", "tkt_5", { resolution: "Resolved again somehow." }),
      { outcome: "rejected", status: "refused", code: "ticket_already_resolved", next: ["start_action"] },
    ],
    [
      "a member's agent",
      start("alice", "resolve_ticket", "tkt_1", { resolution: "I fixed it myself." }),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "another tenant's ticket",
      start("sam", "resolve_ticket", "tkt_gx_1", { resolution: "Resolved it all." }),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "user in the arguments",
      startRaw("sam", { capability: "resolve_ticket", user: "adam" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "a stale version",
      staleAdvance("sam", "resolve_ticket", "tkt_2", {}, { resolution: "Carrier confirmed delivery." }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "resolve_ticket", "tkt_2", {}, { ticket_id: "tkt_1" }),
      { outcome: "rejected", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "setting the status directly",
      start("sam", "resolve_ticket", "tkt_2", { status: "closed" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "an ask rule",
      withRule(
        "sam",
        { verb: "start", pattern: "capability:resolve_ticket", decision: "ask" },
        start("sam", "resolve_ticket", "tkt_2"),
      ),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "confirm without a resolution",
      confirmUnapproved("sam", "resolve_ticket", "tkt_2", {}),
      { outcome: "rejected", reason: "not_in_next_actions", next: ["advance_action"] },
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
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "resolve_ticket", "tkt_4", {
        resolution: "Address updated before shipment.",
      }),
      { outcome: "conflict", reason: "changed_since_approval", next: ["advance_action", "confirm_action"] },
    ],
    [
      "a ticket that does not exist",
      start("sam", "resolve_ticket", "tkt_404", { resolution: "Resolved it all." }),
      { outcome: "not_found", next: ["start_action"] },
    ],
  ],
};

const reopen: Table = {
  valid: [
    [
      "a resolved ticket",
      start("sam", "reopen_ticket", "tkt_5", { reason: "Discount missing again" }),
      {
        ...ready,
        node: "CONFIRM_REOPEN",
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_5", from_status: "resolved", to_status: "open" },
      },
    ],
    [
      "a closed ticket",
      start("sam", "reopen_ticket", "tkt_7", { reason: "Invoice had the wrong VAT" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_7", from_status: "closed", to_status: "open" },
      },
    ],
    [
      "admin",
      start("adam", "reopen_ticket", "tkt_5", { reason: "Audit found an issue" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_5", from_status: "resolved", to_status: "open" },
      },
    ],
    [
      "two steps",
      startThenAdvance("sam", "reopen_ticket", "tkt_6", {}, { reason: "Replacement also damaged" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_6", from_status: "resolved", to_status: "open" },
      },
    ],
    [
      "dry run",
      start("sam", "reopen_ticket", "tkt_7", { reason: "Invoice wrong" }, { dry_run: true }),
      {
        outcome: "preview",
        next: ["start_action"],
        summary: { ticket_id: "tkt_7", from_status: "closed", to_status: "open" },
      },
    ],
    [
      "reason in Chinese",
      start("sam", "reopen_ticket", "tkt_8", { reason: "客户说问题没有解决" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_8", from_status: "closed", to_status: "open" },
      },
    ],
    [
      "short but enough",
      start("sam", "reopen_ticket", "tkt_5", { reason: "bug" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_5", from_status: "resolved", to_status: "open" },
      },
    ],
    [
      "a long reason",
      start("sam", "reopen_ticket", "tkt_6", { reason: "y".repeat(900) }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { ticket_id: "tkt_6", from_status: "resolved", to_status: "open" },
      },
    ],
    [
      "executes and verifies",
      execute("sam", "reopen_ticket", "tkt_6", { reason: "Replacement also damaged" }),
      { ...verified, next: [], summary: { ticket_id: "tkt_6", from_status: "resolved", to_status: "open" } },
    ],
  ],
  incomplete: [
    [
      "no reason",
      start("sam", "reopen_ticket", "tkt_5"),
      { outcome: "input_required", node: "REASON", missing: ["reason"], next: ["advance_action"] },
    ],
    [
      "an open ticket picked at advance (open for another ticket)",
      startThenAdvance("sam", "reopen_ticket", undefined, {}, { ticket_id: "tkt_1" }),
      { outcome: "input_required", code: "ticket_not_resolved", status: "open", next: ["advance_action"] },
    ],
    [
      "a one-letter reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: "x" }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "no ticket",
      start("sam", "reopen_ticket"),
      { outcome: "input_required", missing: ["ticket_id"], next: ["advance_action"] },
    ],
    [
      "a reason too long",
      start("sam", "reopen_ticket", "tkt_5", { reason: "z".repeat(1001) }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "a list as reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: ["a", "b"] }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "an empty reason",
      start("sam", "reopen_ticket", "tkt_5", { reason: "" }),
      { outcome: "input_required", missing: ["reason"], next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "a pending ticket",
      start("sam", "reopen_ticket", "tkt_3", { reason: "again" }),
      { outcome: "rejected", status: "refused", code: "ticket_not_resolved", next: ["start_action"] },
    ],
    [
      "an open ticket",
      start("sam", "reopen_ticket", "tkt_1", { reason: "again" }),
      { outcome: "rejected", status: "refused", code: "ticket_not_resolved", next: ["start_action"] },
    ],
    [
      "a member's agent",
      start("alice", "reopen_ticket", "tkt_5", { reason: "not fixed" }),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "another tenant's ticket",
      start("sam", "reopen_ticket", "tkt_gx_1", { reason: "not fixed" }),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "role in the arguments",
      startRaw("sam", { capability: "reopen_ticket", role: "admin" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "a stale version",
      staleAdvance("sam", "reopen_ticket", "tkt_7", {}, { reason: "not fixed" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "switching tickets",
      startThenAdvance("sam", "reopen_ticket", "tkt_7", {}, { ticket_id: "tkt_8" }),
      { outcome: "rejected", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "setting the priority through reopen",
      start("sam", "reopen_ticket", "tkt_7", { priority: "urgent" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "a deny rule for every confirm",
      withRule(
        "sam",
        { verb: "confirm", pattern: "**", decision: "deny" },
        confirmUnapproved("sam", "reopen_ticket", "tkt_7", { reason: "not fixed" }),
      ),
      { outcome: "rejected", reason: "permission_denied", next: [] },
    ],
    [
      "confirm without a reason",
      confirmUnapproved("sam", "reopen_ticket", "tkt_7", {}),
      { outcome: "rejected", reason: "not_in_next_actions", next: ["advance_action"] },
    ],
    [
      "another agent confirming",
      confirmUnapproved("sam", "reopen_ticket", "tkt_7", { reason: "not fixed" }, "adam"),
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
    [
      "the ticket changed before confirm",
      ticketChangedUnderApproval("sam", "reopen_ticket", "tkt_8", { reason: "Customer wrote back" }),
      { outcome: "conflict", reason: "changed_since_approval", next: ["advance_action", "confirm_action"] },
    ],
    [
      "a ticket that does not exist",
      start("sam", "reopen_ticket", "tkt_0", { reason: "again" }),
      { outcome: "not_found", next: ["start_action"] },
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
    for (const kind of BUCKETS) {
      describe(`${capability} — ${kind}`, () => {
        // Executed cases change the demo data; each group starts from the seeded state.
        beforeAll(async () => w.legacy.reset());
        for (const [name, run, expected] of table[kind]) it(name, async () => check(await run(w), expected));
      });
    }
  }

  describe("the TICKET node offers the caller's tickets when none is named", () => {
    beforeAll(async () => w.legacy.reset());
    const startBare = (capability: string, who = w.agent.sam) => w.gw.startAction(who, { capability });
    const candidates = (out: GatewayOutcome) =>
      ((out.options as { tickets?: Candidate[] } | undefined)?.tickets ?? []) as Candidate[];
    const ids = (out: GatewayOutcome) => candidates(out).map((t) => t.id);
    const possibleYes = (out: GatewayOutcome) =>
      candidates(out)
        .filter((t) => t.possible === "yes")
        .map((t) => t.id);

    // Acme's seed: open tkt_1 (high, unassigned), tkt_2, tkt_9 (urgent, unassigned); pending tkt_3,
    // tkt_4; resolved tkt_5, tkt_6 (high); closed tkt_7, tkt_8.
    it("resolve: the open and pending tickets first, most urgent first; the rest say why not", async () => {
      const out = await startBare("resolve_ticket");
      expect(out).toMatchObject({ outcome: "input_required", node: "TICKET", missing: ["ticket_id"] });
      expect(ids(out)).toEqual([
        "tkt_9",
        "tkt_1",
        "tkt_2",
        "tkt_3",
        "tkt_4",
        "tkt_6",
        "tkt_5",
        "tkt_8",
        "tkt_7",
      ]);
      expect(possibleYes(out)).toEqual(["tkt_9", "tkt_1", "tkt_2", "tkt_3", "tkt_4"]);
      expect(candidates(out).find((t) => t.id === "tkt_7")?.possible).toBe("The ticket is already closed");
      // Every demo ticket fits in one answer: no link to more.
      expect(out.options).not.toHaveProperty("more_tickets");
    });

    it("reopen: resolved before closed, then the open ones with the reason they cannot be reopened", async () => {
      const out = await startBare("reopen_ticket");
      expect(ids(out).slice(0, 4)).toEqual(["tkt_6", "tkt_5", "tkt_8", "tkt_7"]);
      expect(possibleYes(out)).toEqual(["tkt_6", "tkt_5", "tkt_8", "tkt_7"]);
      expect(candidates(out).find((t) => t.id === "tkt_3")?.possible).toBe(
        "The ticket is pending, not resolved or closed; nothing to reopen",
      );
    });

    it("assign: unassigned tickets first; resolved and closed ones last, with the reason", async () => {
      const out = await startBare("assign_ticket");
      expect(ids(out).slice(0, 2)).toEqual(["tkt_9", "tkt_1"]);
      expect(candidates(out)[0]).toEqual({
        id: "tkt_9",
        subject: "Wrong size tee",
        status: "open",
        priority: "urgent",
        assignee: "unassigned",
        team: "shipping",
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
        possible: "yes",
      });
      expect(new Set(possibleYes(out))).toEqual(new Set(["tkt_9", "tkt_1", "tkt_2", "tkt_3", "tkt_4"]));
      expect(candidates(out).find((t) => t.id === "tkt_5")?.possible).toBe(
        "The ticket is resolved; reopen it before assigning",
      );
    });

    it("change priority: every ticket but the closed ones, work still to do first", async () => {
      const out = await startBare("change_ticket_priority");
      expect(ids(out).slice(0, 7)).toEqual(["tkt_9", "tkt_1", "tkt_2", "tkt_3", "tkt_4", "tkt_6", "tkt_5"]);
      expect(possibleYes(out)).toHaveLength(7);
    });

    it("a ticket already as asked is offered as such, not as one the change can be done for", async () => {
      // "Bump to urgent": tkt_9 is urgent already; changing it would change nothing.
      const urgent = await w.gw.startAction(w.agent.sam, {
        capability: "change_ticket_priority",
        patch: { priority: "urgent" },
      });
      expect(candidates(urgent).find((t) => t.id === "tkt_9")?.possible).toBe("already urgent");
      expect(possibleYes(urgent)).not.toContain("tkt_9");
      expect(possibleYes(urgent)).toContain("tkt_1");
      // Assigning to the teammate who has it already: the same.
      const taken = candidates(await startBare("assign_ticket")).find((t) => t.assignee !== "unassigned");
      const assign = await w.gw.startAction(w.agent.sam, {
        capability: "assign_ticket",
        patch: { assignee_id: typeof taken?.assignee === "object" ? taken.assignee.value : undefined },
      });
      expect(candidates(assign).find((t) => t.id === taken?.id)?.possible).toBe("already assigned to them");
    });

    it("each candidate is one short line of the text block, its id copyable first", async () => {
      // The MCP face's own rendering, as the agent reads it (the types differ only by index signatures).
      const out = await startBare("assign_ticket");
      const text = renderOutcomeText(out as Parameters<typeof renderOutcomeText>[0]);
      const line = text.split("\n").find((l) => l.startsWith("- `tkt_9` ")) ?? "";
      // The order of the other fields is the stored JSON's (PostgreSQL's jsonb sorts keys).
      for (const part of [
        "Wrong size tee",
        "open",
        "priority: urgent",
        "assignee: unassigned",
        "team: shipping",
      ])
        expect(line, text).toContain(part);
      expect(line).toContain("possible: yes");
      // 110 before the creation time joined the line ("the oldest ticket" needs it, to the minute),
      // 145 before its age did ("…, 24 h ago": a model does not know what "today" is).
      expect(line.length).toBeLessThanOrEqual(160);
    });

    it("scoped to the caller's tenant: Acme never sees Globex's ticket, Globex's support sees only its own", async () => {
      const people = await peopleOfEveryRole(w);
      for (const capability of [
        "assign_ticket",
        "resolve_ticket",
        "reopen_ticket",
        "close_ticket",
        "change_ticket_priority",
        "set_ticket_status",
        "move_ticket_to_team",
        "unassign_ticket",
      ]) {
        // Every ticket id the answer names, offered or not: a lone ticket that cannot take the
        // change is judged by its own checks (none-can-take.ts), not listed as a candidate.
        // (The field's description names an example id, "e.g. tkt_1": text, not a record.)
        const named = (out: GatewayOutcome) => [
          ...new Set(
            JSON.stringify(out)
              .replace(/(?:e\.g\.|such as) tkt_1\b/g, "")
              .match(/\btkt_[a-z0-9_]+/g),
          ),
        ];
        expect(named(await startBare(capability)).some((id) => id.startsWith("tkt_gx"))).toBe(false);
        const theirs = await startBare(capability, people.globex.support.agent);
        expect(named(theirs), capability).toEqual(["tkt_gx_1"]);
      }
    });

    it("a member's agent gets no candidates: refused before any ticket is read", async () => {
      const out = await startBare("resolve_ticket", w.agent.alice);
      expect(out).toMatchObject({ outcome: "rejected", reason: "permission_required" });
      expect(out.options).toBeUndefined();
    });

    it("picking a candidate with advance_action moves on; picking one it cannot do says the same reason", async () => {
      const out = await startBare("resolve_ticket");
      const first = candidates(out)[0]?.id;
      const picked = await w.gw.advanceAction(w.agent.sam, {
        action_id: out.action_id,
        version: out.version,
        patch: { ticket_id: first },
      });
      expect(picked).toMatchObject({
        outcome: "input_required",
        node: "RESOLUTION",
        missing: ["resolution"],
      });
      expect(picked.options).toMatchObject({ ticket: { id: "tkt_9", status: "open" } });

      const other = await startBare("resolve_ticket");
      const closed = candidates(other).find((t) => t.possible !== "yes");
      const refused = await w.gw.advanceAction(w.agent.sam, {
        action_id: other.action_id,
        version: other.version,
        patch: { ticket_id: closed?.id },
      });
      expect(refused).toMatchObject({ outcome: "input_required", node: "TICKET" });
      expect((refused.validation_errors as Array<{ message: string }>).map((e) => e.message)).toEqual([
        closed?.possible,
      ]);
    });

    it("more tickets than it offers: ten, and the listing page that has the rest", async () => {
      const store = new Database(w.legacy.dbPath);
      try {
        const add = store.prepare(
          `INSERT INTO tickets (tenant_id, id, subject, description, status, priority, assignee_id, team_id,
            requester_email, resolution, order_id, created_at, updated_at)
            VALUES ('acme', ?, ?, 'x', 'open', 'low', NULL, 'billing', 'adam@acme.test', NULL, NULL, ?, ?)`,
        );
        const old = "2020-01-01T00:00:00.000Z";
        for (const n of [1, 2, 3])
          add.run(`tkt_extra_${n}`, `Extra\nticket   ${"long ".repeat(20)}${n}`, old, old);
      } finally {
        store.close();
      }
      try {
        const out = await startBare("resolve_ticket");
        expect(candidates(out)).toHaveLength(10);
        // How to narrow, not a pointer at a full re-list: the subject's words, or the listing's search.
        expect(String((out.options as Record<string, unknown>).more_tickets)).toMatch(
          /subject's words, or helpdesk:\/\/tickets\?status=open&q=$/,
        );
        // The customer's line breaks and long subjects do not reach the agent as they are.
        const extra = candidates(out).find((t) => t.id.startsWith("tkt_extra"));
        expect(extra?.subject).toMatch(/^Extra ticket long .*…$/);
        expect(extra?.subject.length).toBeLessThanOrEqual(60);
      } finally {
        await w.legacy.reset();
      }
    });
  });

  describe("the ASSIGNEE node offers who can take the ticket, compactly", () => {
    beforeAll(async () => w.legacy.reset());
    it("active teammates only, its own team first, not the one who has it already", async () => {
      const unassigned = await w.gw.startAction(w.agent.sam, {
        capability: "assign_ticket",
        entity_id: "tkt_9",
      });
      expect((unassigned.options as { teammates: unknown[] }).teammates).toEqual([
        { id: "tm_sara", name: "Sara Shipping", team: "shipping", same_team: true },
        { id: "tm_sid", name: "Sid Shipping", team: "shipping", same_team: true },
        { id: "tm_bella", name: "Bella Billing", team: "billing", same_team: false },
      ]);
      const sids = await w.gw.startAction(w.agent.sam, { capability: "assign_ticket", entity_id: "tkt_2" });
      expect((sids.options as { teammates: Array<{ id: string }> }).teammates.map((m) => m.id)).toEqual([
        "tm_sara",
        "tm_bella",
      ]);
    });
  });
});

interface Candidate {
  id: string;
  subject: string;
  status: string;
  /** "unassigned", or the teammate as the text names them: `{value: id, label: name}`. */
  assignee: string | { value: string; label: string };
  possible: string;
}

bucketSizes(suites, MIN_CASES);
