/*
  Warnings:

  - You are about to drop the column `tokenExpires` on the `Approval` table. All the data in the column will be lost.
  - You are about to drop the column `tokenHash` on the `Approval` table. All the data in the column will be lost.
  - You are about to drop the column `tokenUsedAt` on the `Approval` table. All the data in the column will be lost.
  - The primary key for the `AuditEvent` table will be changed. If it partially fails, the table could be left without primary key constraint.
  - Added the required column `id` to the `AuditEvent` table without a default value. This is not possible if the table is not empty.

*/
-- CreateTable
CREATE TABLE "AuditCounter" (
    "tenantId" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "actionId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "summaryDigest" TEXT NOT NULL,
    "summary" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "decidedById" TEXT,
    "decidedVia" TEXT,
    "reason" TEXT,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "Approval_actionId_fkey" FOREIGN KEY ("actionId") REFERENCES "Action" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Approval" ("actionId", "createdAt", "decidedAt", "decidedById", "decidedVia", "id", "reason", "status", "summary", "summaryDigest", "tenantId", "userId", "version") SELECT "actionId", "createdAt", "decidedAt", "decidedById", "decidedVia", "id", "reason", "status", "summary", "summaryDigest", "tenantId", "userId", "version" FROM "Approval";
DROP TABLE "Approval";
ALTER TABLE "new_Approval" RENAME TO "Approval";
CREATE INDEX "Approval_tenantId_status_idx" ON "Approval"("tenantId", "status");
CREATE UNIQUE INDEX "Approval_actionId_version_key" ON "Approval"("actionId", "version");
CREATE TABLE "new_AuditEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "agentId" TEXT,
    "userId" TEXT,
    "face" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "target" TEXT,
    "capability" TEXT,
    "arguments" JSONB NOT NULL,
    "decision" TEXT,
    "outcome" TEXT NOT NULL,
    "message" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "actionId" TEXT,
    "actionKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
-- The old global seq becomes the internal id, and seq is renumbered per tenant.
INSERT INTO "new_AuditEvent" ("id", "seq", "actionId", "actionKey", "agentId", "arguments", "capability", "createdAt", "decision", "face", "latencyMs", "message", "operation", "outcome", "target", "tenantId", "userId") SELECT "seq", ROW_NUMBER() OVER (PARTITION BY "tenantId" ORDER BY "seq"), "actionId", "actionKey", "agentId", "arguments", "capability", "createdAt", "decision", "face", "latencyMs", "message", "operation", "outcome", "target", "tenantId", "userId" FROM "AuditEvent";
INSERT INTO "AuditCounter" ("tenantId", "seq") SELECT "tenantId", MAX("seq") FROM "new_AuditEvent" GROUP BY "tenantId";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_actionId_idx" ON "AuditEvent"("actionId");
CREATE UNIQUE INDEX "AuditEvent_tenantId_seq_key" ON "AuditEvent"("tenantId", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
