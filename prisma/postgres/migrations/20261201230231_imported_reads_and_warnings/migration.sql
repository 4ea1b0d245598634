-- AlterTable
ALTER TABLE "ImportedConnector" ADD COLUMN     "readOperations" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "warnings" TEXT NOT NULL DEFAULT '[]';
