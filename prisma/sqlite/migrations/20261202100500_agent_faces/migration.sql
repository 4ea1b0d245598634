-- The faces an admin chose for an agent key (null: the default faces).

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "faces" TEXT;
