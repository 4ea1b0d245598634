-- CreateTable
CREATE TABLE "SignInFailure" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "SignInFailure_email_createdAt_idx" ON "SignInFailure"("email", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_ip_createdAt_idx" ON "SignInFailure"("ip", "createdAt");
