-- "Placed by you" (server/engine/created-by-agent.ts) asks the action store which of the listed
-- records an action of the calling agent created: only applied and completed actions count. Each
-- instance caches the answer per agent and keeps it while the agent's stamp, read with the tenant
-- row every MCP call reads anyway, is unchanged. The stamp moves whenever one of the agent's
-- actions becomes, is changed while, or stops being applied or completed (or goes): bumped by
-- triggers, so no writer (engine, recovery queue, a hand-written SQL fix) can forget it. Changes
-- to open actions leave it, and the agent's cached answers, alone.

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "appliedActionsVersion" INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER "Action_applied_actions_version_insert" AFTER INSERT ON "Action"
WHEN NEW."status" IN ('applied', 'completed')
BEGIN
    UPDATE "Agent" SET "appliedActionsVersion" = "appliedActionsVersion" + 1 WHERE "id" = NEW."agentId";
END;

CREATE TRIGGER "Action_applied_actions_version_update" AFTER UPDATE ON "Action"
WHEN NEW."status" IN ('applied', 'completed') OR OLD."status" IN ('applied', 'completed')
BEGIN
    UPDATE "Agent" SET "appliedActionsVersion" = "appliedActionsVersion" + 1
    WHERE "id" = OLD."agentId" OR "id" = NEW."agentId";
END;

CREATE TRIGGER "Action_applied_actions_version_delete" AFTER DELETE ON "Action"
WHEN OLD."status" IN ('applied', 'completed')
BEGIN
    UPDATE "Agent" SET "appliedActionsVersion" = "appliedActionsVersion" + 1 WHERE "id" = OLD."agentId";
END;
