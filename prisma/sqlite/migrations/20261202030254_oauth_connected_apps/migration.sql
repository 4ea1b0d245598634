-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "oauthClientId" TEXT;

-- CreateTable
CREATE TABLE "OAuthRecord" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "model" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "grantId" TEXT,
    "uid" TEXT,
    "accountId" TEXT,
    "clientId" TEXT,
    "expiresAt" DATETIME,
    "consumedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "OAuthRecord_grantId_idx" ON "OAuthRecord"("grantId");

-- CreateIndex
CREATE INDEX "OAuthRecord_uid_idx" ON "OAuthRecord"("uid");

-- CreateIndex
CREATE INDEX "OAuthRecord_accountId_clientId_idx" ON "OAuthRecord"("accountId", "clientId");

-- CreateIndex
CREATE INDEX "OAuthRecord_expiresAt_idx" ON "OAuthRecord"("expiresAt");

-- CreateIndex
CREATE INDEX "Agent_userId_oauthClientId_idx" ON "Agent"("userId", "oauthClientId");
