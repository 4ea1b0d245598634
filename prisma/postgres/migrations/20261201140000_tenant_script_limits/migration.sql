-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "scriptLimits" JSONB;
