-- CreateTable
CREATE TABLE "McpTask" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "actionId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "tool" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "result" TEXT,
    "claimedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Tenant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "scriptLimits" JSONB,
    "passwordSignIn" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Tenant" ("createdAt", "id", "name", "scriptLimits") SELECT "createdAt", "id", "name", "scriptLimits" FROM "Tenant";
DROP TABLE "Tenant";
ALTER TABLE "new_Tenant" RENAME TO "Tenant";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "McpTask_tenantId_agentId_idx" ON "McpTask"("tenantId", "agentId");

-- CreateIndex
CREATE INDEX "McpTask_actionId_idx" ON "McpTask"("actionId");

-- CreateIndex
CREATE INDEX "McpTask_expiresAt_idx" ON "McpTask"("expiresAt");
