-- CreateTable
CREATE TABLE "ImportedConnector" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "readRoles" TEXT NOT NULL,
    "idempotencyHeader" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ImportedConnector_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ImportedConnector_tenantId_connector_key" ON "ImportedConnector"("tenantId", "connector");

-- AddForeignKey
ALTER TABLE "ImportedConnector" ADD CONSTRAINT "ImportedConnector_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
