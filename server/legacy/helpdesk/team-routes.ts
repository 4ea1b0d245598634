import { z } from "zod";
import { defineRoute } from "../http/define-route";
import { listOf, pageQueryShape, paginate } from "../http/paginate";
import { teammateSchema, teamSchema } from "./helpdesk-schemas";

export const teamRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/teams",
    operationId: "listTeams",
    summary: "Helpdesk teams",
    tag: "helpdesk",
    query: z.object(pageQueryShape),
    response: listOf(teamSchema),
    handler: ({ db, tenantId, query }) =>
      paginate(
        db.prepare("SELECT id, name FROM teams WHERE tenant_id = ? ORDER BY id").all(tenantId) as {
          id: string;
          name: string;
        }[],
        query,
      ),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/teammates",
    operationId: "listTeammates",
    summary: "Teammates, optionally of one team (inactive ones included, marked)",
    tag: "helpdesk",
    query: z.object({ team: z.string().optional().describe("team id"), ...pageQueryShape }),
    response: listOf(teammateSchema),
    handler: ({ db, tenantId, query }) => {
      const rows = (
        query.team
          ? db
              .prepare(
                "SELECT id, name, email, team_id, active FROM teammates WHERE tenant_id = ? AND team_id = ? ORDER BY id",
              )
              .all(tenantId, query.team)
          : db
              .prepare(
                "SELECT id, name, email, team_id, active FROM teammates WHERE tenant_id = ? ORDER BY id",
              )
              .all(tenantId)
      ) as { id: string; name: string; email: string; team_id: string; active: number }[];
      return paginate(
        rows.map((r) => ({ ...r, active: r.active === 1 })),
        query,
      );
    },
  }),
];
