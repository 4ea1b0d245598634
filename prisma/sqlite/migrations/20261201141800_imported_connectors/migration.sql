-- CreateTable
CREATE TABLE "ImportedConnector" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "readRoles" TEXT NOT NULL,
    "idempotencyHeader" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ImportedConnector_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ImportedConnector_tenantId_connector_key" ON "ImportedConnector"("tenantId", "connector");
