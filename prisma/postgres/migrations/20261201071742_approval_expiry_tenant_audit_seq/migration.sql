-- Approvals: no more MCP App tokens (no value that can approve leaves Signpost), and an expiry.
DROP INDEX "Approval_tokenHash_key";
ALTER TABLE "Approval" DROP COLUMN "tokenExpires",
DROP COLUMN "tokenHash",
DROP COLUMN "tokenUsedAt",
ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- Audit: the global sequence becomes an internal id, and seq is numbered per tenant.
DROP INDEX "AuditEvent_tenantId_seq_idx";
ALTER TABLE "AuditEvent" DROP CONSTRAINT "AuditEvent_pkey";
ALTER TABLE "AuditEvent" ADD COLUMN "id" INTEGER;
UPDATE "AuditEvent" SET "id" = "seq";
UPDATE "AuditEvent" AS a SET "seq" = n.rn
  FROM (SELECT "id", ROW_NUMBER() OVER (PARTITION BY "tenantId" ORDER BY "id") AS rn FROM "AuditEvent") AS n
  WHERE a."id" = n."id";
ALTER TABLE "AuditEvent" ALTER COLUMN "seq" DROP DEFAULT;
DROP SEQUENCE "AuditEvent_seq_seq";
CREATE SEQUENCE "AuditEvent_id_seq" AS INTEGER OWNED BY "AuditEvent"."id";
SELECT setval('"AuditEvent_id_seq"', COALESCE((SELECT MAX("id") FROM "AuditEvent"), 0) + 1, false);
ALTER TABLE "AuditEvent" ALTER COLUMN "id" SET DEFAULT nextval('"AuditEvent_id_seq"'),
ALTER COLUMN "id" SET NOT NULL,
ADD CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id");

-- CreateTable
CREATE TABLE "AuditCounter" (
    "tenantId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,

    CONSTRAINT "AuditCounter_pkey" PRIMARY KEY ("tenantId")
);
INSERT INTO "AuditCounter" ("tenantId", "seq") SELECT "tenantId", MAX("seq") FROM "AuditEvent" GROUP BY "tenantId";

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_tenantId_seq_key" ON "AuditEvent"("tenantId", "seq");
