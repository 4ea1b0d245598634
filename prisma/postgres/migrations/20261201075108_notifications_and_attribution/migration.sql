-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "revokedById" TEXT;

-- AlterTable
ALTER TABLE "PermissionRule" ADD COLUMN     "updatedById" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "notifyBrowser" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "notifyEmail" BOOLEAN NOT NULL DEFAULT true;
