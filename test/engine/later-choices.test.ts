import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyCapability } from "../../server/connectors/sdk/define-capability";
import { laterChoicesInWords } from "../../server/engine/later-choices";

/** Only what the reading looks at: the steps and their fields. */
const flow = {
  nodes: [
    { id: "TICKET", fields: { ticket_id: z.string() } },
    {
      id: "CHANGE",
      fields: {
        status: z.enum(["open", "pending", "resolved"]),
        priority: z.enum(["low", "normal", "high", "urgent"]),
      },
    },
    { id: "CONFIRM", requiresConfirmation: true, fields: { notify: z.enum(["email", "none"]) } },
  ],
} as unknown as AnyCapability;

const offered = { tickets: [{ id: "tkt_1", status: "open", subject: "Parcel late" }] };

describe("later steps' fixed choices taken from the user's words at the start", () => {
  it("a value the words name once, beside a word of its field, is taken; a word that describes a record offered now is not", () => {
    expect(
      laterChoicesInWords(flow, 0, {}, offered, "set the open parcel ticket to priority urgent"),
    ).toEqual({
      priority: "urgent",
    });
    // "resolved" names a status no offered ticket has.
    expect(laterChoicesInWords(flow, 0, {}, offered, "set the parcel ticket's status to resolved")).toEqual({
      status: "resolved",
    });
  });

  it("a value's word used in another sense is not taken: no word of its field beside it", () => {
    expect(
      laterChoicesInWords(flow, 0, {}, offered, "escalate the ticket about the low disk warning"),
    ).toEqual({});
    expect(laterChoicesInWords(flow, 0, {}, offered, "the parcel ticket is urgent, I think")).toEqual({});
  });

  it("nothing already given, nothing past the confirmation, nothing said in quotes", () => {
    expect(laterChoicesInWords(flow, 0, { priority: "low" }, offered, "make its priority urgent")).toEqual(
      {},
    );
    expect(laterChoicesInWords(flow, 0, {}, offered, "tell them by email")).toEqual({});
    expect(laterChoicesInWords(flow, 0, {}, offered, 'comment "priority urgent" on it')).toEqual({});
  });
});
