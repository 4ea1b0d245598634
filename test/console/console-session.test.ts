import { afterAll, beforeAll, expect, it } from "vitest";
import { hashSessionToken, resolveConsoleSession, signIn, signOut } from "@/server/gateway/console-session";
import { hashPassword } from "@/server/gateway/passwords";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";

describeEachProvider("console sessions on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.tenant.create({ data: { id: "acme", name: "Acme" } });
    await t.db.user.create({
      data: {
        tenantId: "acme",
        email: "adam@acme.test",
        name: "Adam",
        role: "admin",
        passwordHash: await hashPassword("correct horse"),
      },
    });
  });
  afterAll(async () => t?.drop());

  it("signs in with the right password and stores only the token's hash", async () => {
    const result = await signIn(t.db, { email: "adam@acme.test", password: "correct horse" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.context).toMatchObject({ tenantId: "acme", role: "admin", email: "adam@acme.test" });
    const rows = await t.db.session.findMany();
    expect(rows.some((r) => r.tokenHash === result.token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === hashSessionToken(result.token))).toBe(true);
    const ctx = await resolveConsoleSession(t.db, result.token);
    expect(ctx).toMatchObject({ tenantId: "acme", userId: result.context.userId, role: "admin" });
  });

  it("refuses a wrong password, an unknown email and a made-up token alike", async () => {
    expect(await signIn(t.db, { email: "adam@acme.test", password: "wrong" })).toEqual({
      ok: false,
      reason: "invalid_credentials",
    });
    expect(await signIn(t.db, { email: "nobody@acme.test", password: "correct horse" })).toEqual({
      ok: false,
      reason: "invalid_credentials",
    });
    expect(await resolveConsoleSession(t.db, "not-a-token")).toBeNull();
    expect(await resolveConsoleSession(t.db, undefined)).toBeNull();
  });

  it("an expired session resolves to nobody and is removed; sign-out ends a session", async () => {
    const a = await signIn(t.db, { email: "adam@acme.test", password: "correct horse" });
    const b = await signIn(t.db, { email: "adam@acme.test", password: "correct horse" });
    if (!a.ok || !b.ok) throw new Error("sign-in failed");
    await t.db.session.updateMany({
      where: { tokenHash: hashSessionToken(a.token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await resolveConsoleSession(t.db, a.token)).toBeNull();
    expect(await t.db.session.count({ where: { tokenHash: hashSessionToken(a.token) } })).toBe(0);
    expect(await resolveConsoleSession(t.db, b.token)).not.toBeNull();
    await signOut(t.db, b.token);
    expect(await resolveConsoleSession(t.db, b.token)).toBeNull();
  });

  it("a role change applies to the next request of an open session", async () => {
    const s = await signIn(t.db, { email: "adam@acme.test", password: "correct horse" });
    if (!s.ok) throw new Error("sign-in failed");
    await t.db.user.update({ where: { email: "adam@acme.test" }, data: { role: "member" } });
    expect(await resolveConsoleSession(t.db, s.token)).toMatchObject({ role: "member" });
    await t.db.user.update({ where: { email: "adam@acme.test" }, data: { role: "admin" } });
  });
});
