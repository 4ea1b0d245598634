-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ImportedConnector" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "readRoles" TEXT NOT NULL,
    "idempotencyHeader" TEXT,
    "readOperations" TEXT NOT NULL DEFAULT '',
    "warnings" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ImportedConnector_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_ImportedConnector" ("baseUrl", "connector", "createdAt", "document", "id", "idempotencyHeader", "readRoles", "tenantId", "title", "updatedAt") SELECT "baseUrl", "connector", "createdAt", "document", "id", "idempotencyHeader", "readRoles", "tenantId", "title", "updatedAt" FROM "ImportedConnector";
DROP TABLE "ImportedConnector";
ALTER TABLE "new_ImportedConnector" RENAME TO "ImportedConnector";
CREATE UNIQUE INDEX "ImportedConnector_tenantId_connector_key" ON "ImportedConnector"("tenantId", "connector");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
