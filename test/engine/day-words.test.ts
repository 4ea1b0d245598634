import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyCapability } from "../../server/connectors/sdk/define-capability";
import { rowOf } from "../../server/engine/choice-words";
import { datingWords, dayOf } from "../../server/engine/day-words";
import { describedRecords } from "../../server/engine/described-records";

const now = Date.parse("2026-12-04T12:00:00Z");
const hoursAgo = (h: number) =>
  rowOf("ord_x", { id: "ord_x", created_at: new Date(now - h * 3_600_000).toISOString() });

describe("day words: how far back 'today' and 'yesterday' may reach, for a person in any time zone", () => {
  it("today reaches 24 hours back, yesterday 48; a time to come is not today", () => {
    expect(dayOf(hoursAgo(0.1), "today", now)).toBe(true);
    expect(dayOf(hoursAgo(23.9), "today", now)).toBe(true);
    expect(dayOf(hoursAgo(24.1), "today", now)).toBe(false);
    expect(dayOf(hoursAgo(47), "yesterday", now)).toBe(true);
    expect(dayOf(hoursAgo(49), "yesterday", now)).toBe(false);
    expect(dayOf(hoursAgo(-1), "today", now)).toBe(false);
  });

  it("'just placed' dates the record as today does (set X); 'just' alone dates nothing", () => {
    expect([...datingWords("Cancel the order I just placed.")]).toEqual(["today"]);
    expect([...datingWords("I just bought it")]).toEqual(["today"]);
    expect([...datingWords("just cancel my order")]).toEqual([]);
  });

  it("no answer for a word that is no day word, or a row with no creation time to tell by", () => {
    expect(dayOf(hoursAgo(1), "order", now)).toBeUndefined();
    expect(dayOf(rowOf("ord_y", { id: "ord_y", status: "paid" }), "today", now)).toBeUndefined();
    expect(dayOf(rowOf("ord_z", { id: "ord_z", placed: "not a time" }), "today", now)).toBeUndefined();
  });
});

describe("a day word names a record only where it dates it", () => {
  const capability = {
    id: "change_ticket_priority",
    title: "Change ticket priority",
    description: "Change a ticket's priority",
    trigger: { use: "A ticket needs a higher or lower priority" },
    synonyms: ["bump", "escalate"],
    appliesTo: { entity: "Ticket", field: "ticket_id" },
    policy: { approval: "never", effect: "write" },
    nodes: [
      { id: "TICKET", fields: { ticket_id: z.string() } },
      { id: "CHANGE", fields: { priority: z.enum(["low", "normal", "high", "urgent"]) } },
    ],
  } as unknown as AnyCapability;
  const at = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  const ticket = (id: string, subject: string, h: number, possible = "yes") =>
    rowOf(id, { id, subject, created_at: at(h), possible });

  it("'opened today' dates the ticket; 'urgent today' says when to act and names none", () => {
    const rows = [ticket("tkt_1", "Printer jammed", 72), ticket("tkt_2", "Printer out of toner", 2)];
    expect(datingWords("close the printer ticket opened today")).toEqual(new Set(["today"]));
    expect(datingWords("make the printer ticket urgent today")).toEqual(new Set());
    expect(datingWords("yesterday's order")).toEqual(new Set(["yesterday"]));
    expect(describedRecords(capability, rows, "make the printer ticket urgent today")).toBeUndefined();
    expect(describedRecords(capability, rows, "bump the printer ticket opened today")).toMatchObject({
      kind: "one",
      choice: { value: "tkt_2" },
    });
  });

  it("where the day fits another record too, even one that cannot take the change, the user is asked", () => {
    const rows = [
      ticket("tkt_1", "Printer jammed", 72),
      ticket("tkt_2", "Printer out of toner", 2, "already urgent"),
      ticket("tkt_3", "Printer offline", 20),
    ];
    expect(describedRecords(capability, rows, "bump the printer ticket opened today")?.kind).toBe("several");
  });
});
