-- AlterTable
ALTER TABLE "Action" ADD COLUMN     "startKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Action_tenantId_startKey_key" ON "Action"("tenantId", "startKey");
