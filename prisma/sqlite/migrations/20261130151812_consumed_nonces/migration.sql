-- CreateTable
CREATE TABLE "ConsumedNonce" (
    "nonce" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ConsumedNonce_expiresAt_idx" ON "ConsumedNonce"("expiresAt");
