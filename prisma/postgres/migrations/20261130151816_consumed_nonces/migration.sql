-- CreateTable
CREATE TABLE "ConsumedNonce" (
    "nonce" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConsumedNonce_pkey" PRIMARY KEY ("nonce")
);

-- CreateIndex
CREATE INDEX "ConsumedNonce_expiresAt_idx" ON "ConsumedNonce"("expiresAt");
