import { describe, expect, it } from "vitest";
import { teammatesHeading } from "@/server/connectors/helpdesk/capabilities/assign-ticket";
import type { HelpdeskTeammate } from "@/server/connectors/helpdesk/helpdesk-adapter";

const mate = (id: string, active = true): HelpdeskTeammate => ({
  id,
  name: id.replace("tm_", "").replace(/^./, (c) => c.toUpperCase()),
  email: `${id}@example.test`,
  team_id: "billing",
  active,
});

/** The assignee list's heading says who is left out, and never someone who is not there. */
describe("teammatesHeading", () => {
  const team = [mate("tm_bella"), mate("tm_sid"), mate("tm_old", false)];

  it("an unassigned ticket leaves out no current assignee (the replay read 'Assigned now: none' beside one)", () => {
    expect(teammatesHeading(team, null)).toBe("the ticket's team first; inactive (Old) left out");
  });

  it("names the current assignee it leaves out", () => {
    expect(teammatesHeading(team, "tm_sid")).toBe(
      "the ticket's team first; inactive (Old) and the current assignee (Sid) left out",
    );
  });

  it("says nothing is left out when nothing is", () => {
    expect(teammatesHeading([mate("tm_bella")], undefined)).toBe("the ticket's team first");
    expect(teammatesHeading([mate("tm_bella"), mate("tm_a", false), mate("tm_b", false)], null)).toBe(
      "the ticket's team first; inactive (A, B) left out",
    );
  });
});
