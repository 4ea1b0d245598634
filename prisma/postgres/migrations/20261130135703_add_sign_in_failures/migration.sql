-- CreateTable
CREATE TABLE "SignInFailure" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "ip" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SignInFailure_email_createdAt_idx" ON "SignInFailure"("email", "createdAt");

-- CreateIndex
CREATE INDEX "SignInFailure_ip_createdAt_idx" ON "SignInFailure"("ip", "createdAt");
