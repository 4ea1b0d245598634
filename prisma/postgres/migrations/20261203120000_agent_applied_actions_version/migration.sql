-- "Placed by you" (server/engine/created-by-agent.ts) asks the action store which of the listed
-- records an action of the calling agent created: only applied and completed actions count. Each
-- instance caches the answer per agent and keeps it while the agent's stamp, read with the tenant
-- row every MCP call reads anyway, is unchanged. The stamp moves whenever one of the agent's
-- actions becomes, is changed while, or stops being applied or completed (or goes): bumped by
-- triggers, so no writer (engine, recovery queue, a hand-written SQL fix) can forget it. Changes
-- to open actions leave it, and the agent's cached answers, alone. The Agent row is locked by the
-- bump until the action's transaction ends: only that agent's own settling actions wait on it.

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "appliedActionsVersion" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "signpost_bump_applied_actions_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD."status" IN ('applied', 'completed') THEN
        UPDATE "Agent" SET "appliedActionsVersion" = "appliedActionsVersion" + 1 WHERE "id" = OLD."agentId";
    END IF;
    IF TG_OP <> 'DELETE' AND NEW."status" IN ('applied', 'completed') AND (
        TG_OP = 'INSERT' OR OLD."status" NOT IN ('applied', 'completed')
        OR NEW."agentId" IS DISTINCT FROM OLD."agentId") THEN
        UPDATE "Agent" SET "appliedActionsVersion" = "appliedActionsVersion" + 1 WHERE "id" = NEW."agentId";
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "Action_applied_actions_version" AFTER INSERT OR UPDATE OR DELETE ON "Action"
    FOR EACH ROW EXECUTE FUNCTION "signpost_bump_applied_actions_version"();
