-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "passwordSignIn" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "McpTask" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "actionId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "tool" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "result" TEXT,
    "claimedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "McpTask_tenantId_agentId_idx" ON "McpTask"("tenantId", "agentId");

-- CreateIndex
CREATE INDEX "McpTask_actionId_idx" ON "McpTask"("actionId");

-- CreateIndex
CREATE INDEX "McpTask_expiresAt_idx" ON "McpTask"("expiresAt");
