import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type RunningLegacy, startLegacy } from "@/test/helpers/legacy-server";
import { call } from "./legacy-http";

let legacy: RunningLegacy;
beforeAll(async () => {
  legacy = await startLegacy();
});
afterAll(async () => {
  await legacy.stop();
});
beforeEach(async () => {
  await legacy.reset();
});

describe("helpdesk", () => {
  test("demo tickets cover every status across both teams", async () => {
    const all = await call(legacy, "GET", "/v1/tickets?per_page=100");
    const seen = new Set(
      all.body.data.map((t: { status: string; team_id: string }) => `${t.team_id}/${t.status}`),
    );
    for (const team of ["billing", "shipping"]) {
      for (const status of ["open", "pending", "resolved", "closed"])
        expect(seen, `${team}/${status}`).toContain(`${team}/${status}`);
    }
    const teams = await call(legacy, "GET", "/v1/teams");
    expect(teams.body.data.map((t: { id: string }) => t.id)).toEqual(["billing", "shipping"]);
    const billing = await call(legacy, "GET", "/v1/teammates?team=billing");
    expect(billing.body.data.map((m: { id: string; active: boolean }) => [m.id, m.active])).toEqual([
      ["tm_bella", true],
      ["tm_bruno", false],
    ]);
  });

  test("filters: status, team, assignee, text", async () => {
    const open = await call(legacy, "GET", "/v1/tickets?status=open&team_id=shipping");
    expect(
      open.body.data.every(
        (t: { status: string; team_id: string }) => t.status === "open" && t.team_id === "shipping",
      ),
    ).toBe(true);
    expect(open.body.total).toBeGreaterThan(0);
    const bella = await call(legacy, "GET", "/v1/tickets?assignee_id=tm_bella");
    expect(bella.body.data.every((t: { assignee_id: string }) => t.assignee_id === "tm_bella")).toBe(true);
    const text = await call(legacy, "GET", "/v1/tickets?q=headphones");
    expect(text.body.data.map((t: { id: string }) => t.id)).toEqual(["tkt_2"]);
    expect((await call(legacy, "GET", "/v1/tickets?status=weird")).status).toBe(400);
  });

  test("the generic PATCH changes any field with almost no checks", async () => {
    // An inactive teammate from another team, a resolved ticket without resolution: accepted.
    const res = await call(legacy, "PATCH", "/v1/tickets/tkt_2", {
      body: { assignee_id: "tm_bruno", status: "resolved", priority: "low", subject: "renamed" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      assignee_id: "tm_bruno",
      team_id: "shipping",
      status: "resolved",
      resolution: null,
      subject: "renamed",
    });
    const unassign = await call(legacy, "PATCH", "/v1/tickets/tkt_2", { body: { assignee_id: null } });
    expect(unassign.body.assignee_id).toBeNull();
    const ghost = await call(legacy, "PATCH", "/v1/tickets/tkt_2", { body: { assignee_id: "tm_nobody" } });
    expect(ghost.status).toBe(422);
    expect(ghost.body.error.code).toBe("validation_failed");
    expect((await call(legacy, "PATCH", "/v1/tickets/tkt_2", { body: {} })).status).toBe(400);
    expect((await call(legacy, "PATCH", "/v1/tickets/tkt_2", { body: { colour: "red" } })).status).toBe(400);
    expect((await call(legacy, "PATCH", "/v1/tickets/tkt_404", { body: { status: "open" } })).status).toBe(
      404,
    );
  });

  test("comments: list and add (internal notes flagged)", async () => {
    const before = await call(legacy, "GET", "/v1/tickets/tkt_1/comments");
    expect(before.body.total).toBe(2);
    const added = await call(legacy, "POST", "/v1/tickets/tkt_1/comments", {
      idempotencyKey: "c-1",
      body: { author: "tm_bella", body: "Refund issued.", internal: true, reference: "act_c" },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ticket_id: "tkt_1", internal: true, reference: "act_c" });
    const after = await call(legacy, "GET", "/v1/tickets/tkt_1/comments");
    expect(after.body.data.at(-1).id).toBe(added.body.id);
    const dup = await call(legacy, "POST", "/v1/tickets/tkt_1/comments", {
      idempotencyKey: "c-1",
      body: { author: "tm_bella", body: "Refund issued.", internal: true, reference: "act_c" },
    });
    expect(dup.body.id).toBe(added.body.id);
    expect((await call(legacy, "GET", "/v1/tickets/tkt_1/comments")).body.total).toBe(3);
  });
});
