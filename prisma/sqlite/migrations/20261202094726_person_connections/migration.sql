-- CreateTable
CREATE TABLE "PersonConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "accessToken" TEXT NOT NULL,
    "refreshToken" TEXT,
    "scopes" TEXT NOT NULL DEFAULT '',
    "expiresAt" DATETIME,
    "refreshLeaseUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME
);

-- CreateTable
CREATE TABLE "ConnectAttempt" (
    "stateHash" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "codeVerifier" TEXT NOT NULL,
    "returnTo" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "PersonConnection_tenantId_connector_idx" ON "PersonConnection"("tenantId", "connector");

-- CreateIndex
CREATE UNIQUE INDEX "PersonConnection_tenantId_userId_connector_key" ON "PersonConnection"("tenantId", "userId", "connector");

-- CreateIndex
CREATE INDEX "ConnectAttempt_expiresAt_idx" ON "ConnectAttempt"("expiresAt");
