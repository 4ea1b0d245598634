import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/server/gateway/passwords";

// Protects: console passwords are salted scrypt hashes; only the right password verifies, and
// a malformed stored hash is a plain "no", not a crash.

describe("passwords", () => {
  it("verifies the right password only", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horse ", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    const [a, b] = await Promise.all([hashPassword("pw"), hashPassword("pw")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("pw", b)).toBe(true);
  });

  it("treats malformed or hostile stored hashes as a mismatch", async () => {
    for (const stored of [
      "",
      "plain",
      "scrypt$1$2$3",
      "bcrypt$x$y$z$a$b",
      "scrypt$99999999$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==",
    ]) {
      expect(await verifyPassword("pw", stored)).toBe(false);
    }
  });
});
