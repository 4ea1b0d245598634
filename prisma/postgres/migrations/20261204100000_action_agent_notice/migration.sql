-- A person's decision on an agent's action (an approval and its run, or a decline) leaves news
-- for that agent: its next MCP call, whatever the tool, brings the action's state with the answer
-- and clears the flag (server/gateway/operations/agent-news.ts). The decision also bumps the
-- agent's appliedActionsVersion, read with the tenant row of every call, so an instance asks for
-- news only when that stamp moved.

-- AlterTable
ALTER TABLE "Action" ADD COLUMN "agentNotice" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Action_tenantId_agentId_agentNotice_idx" ON "Action"("tenantId", "agentId", "agentNotice");
