import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { POST as signInRoute } from "@/app/api/auth/sign-in/route";
import {
  SIGN_IN_EMAIL_LIMIT,
  SIGN_IN_IP_LIMIT,
  SIGN_IN_WINDOW_MS,
  signIn,
} from "@/server/gateway/console-session";
import { hashPassword } from "@/server/gateway/passwords";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";

const PASSWORD = "correct horse";

describeEachProvider("sign-in throttling on %s", (provider) => {
  let t: TestDatabase;
  let clock: Date;
  const now = () => clock;
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.tenant.create({ data: { id: "acme", name: "Acme" } });
    const passwordHash = await hashPassword(PASSWORD);
    for (const email of ["adam@acme.test", "eve@acme.test"]) {
      await t.db.user.create({ data: { tenantId: "acme", email, name: email, role: "admin", passwordHash } });
    }
  });
  afterAll(async () => t?.drop());
  beforeEach(async () => {
    await t.db.signInFailure.deleteMany({});
    clock = new Date("2026-11-30T12:00:00Z");
  });

  const attempt = (email: string, password: string, ip = "10.0.0.1") =>
    signIn(t.db, { email, password }, { ip, now });

  it(`refuses the email after ${SIGN_IN_EMAIL_LIMIT} failures, even with the right password, until the window passes`, async () => {
    for (let i = 0; i < SIGN_IN_EMAIL_LIMIT; i++) {
      expect(await attempt("adam@acme.test", "wrong")).toEqual({ ok: false, reason: "invalid_credentials" });
      advance(60_000);
    }
    // Now 5 minutes after the first failure: that one leaves the window in 10 minutes.
    expect(await attempt("adam@acme.test", PASSWORD)).toEqual({
      ok: false,
      reason: "too_many_attempts",
      retryAfterS: 10 * 60,
    });
    // Refused attempts do not extend the lock-out.
    advance(10 * 60_000 - 1_000);
    expect(await attempt("adam@acme.test", PASSWORD)).toMatchObject({
      reason: "too_many_attempts",
      retryAfterS: 1,
    });
    advance(1_000);
    expect(await attempt("adam@acme.test", PASSWORD)).toMatchObject({ ok: true });
    // Another email from the same address is not locked by adam's failures.
    expect(await attempt("eve@acme.test", PASSWORD)).toMatchObject({ ok: true });
  });

  it("a success resets the email's count", async () => {
    for (let i = 0; i < SIGN_IN_EMAIL_LIMIT - 1; i++) await attempt("adam@acme.test", "wrong");
    expect(await attempt("adam@acme.test", PASSWORD)).toMatchObject({ ok: true });
    for (let i = 0; i < SIGN_IN_EMAIL_LIMIT - 1; i++) {
      expect(await attempt("adam@acme.test", "wrong")).toMatchObject({ reason: "invalid_credentials" });
    }
    expect(await attempt("adam@acme.test", PASSWORD)).toMatchObject({ ok: true });
  });

  it("an unknown email is counted and answered exactly like a wrong password (no enumeration)", async () => {
    for (let i = 0; i < SIGN_IN_EMAIL_LIMIT; i++) {
      expect(await attempt("nobody@acme.test", "x")).toEqual({ ok: false, reason: "invalid_credentials" });
    }
    expect(await attempt("nobody@acme.test", "x")).toEqual({
      ok: false,
      reason: "too_many_attempts",
      retryAfterS: SIGN_IN_WINDOW_MS / 1000,
    });
  });

  it(`refuses a client address after ${SIGN_IN_IP_LIMIT} failures across many emails; other addresses still sign in`, async () => {
    for (let i = 0; i < SIGN_IN_IP_LIMIT; i++) {
      expect(await attempt(`spray${i}@acme.test`, "x", "10.9.9.9")).toMatchObject({
        reason: "invalid_credentials",
      });
    }
    expect(await attempt("adam@acme.test", PASSWORD, "10.9.9.9")).toMatchObject({
      reason: "too_many_attempts",
    });
    expect(await attempt("adam@acme.test", PASSWORD, "10.0.0.2")).toMatchObject({ ok: true });
    advance(SIGN_IN_WINDOW_MS);
    expect(await attempt("adam@acme.test", PASSWORD, "10.9.9.9")).toMatchObject({ ok: true });
  });

  it("a failed sign-in prunes every failure older than the window, whatever its email or address", async () => {
    await attempt("gone@acme.test", "x", "10.7.7.7");
    advance(SIGN_IN_WINDOW_MS);
    await attempt("adam@acme.test", "wrong", "10.0.0.3");
    const rows = await t.db.signInFailure.findMany({ select: { email: true } });
    expect(rows).toEqual([{ email: "adam@acme.test" }]);
  });

  it("a parallel burst cannot slip past the limit while passwords are being checked", async () => {
    const burst = await Promise.all(Array.from({ length: 12 }, () => attempt("eve@acme.test", "wrong")));
    const after = [];
    for (let i = 0; i < SIGN_IN_EMAIL_LIMIT + 1; i++) after.push(await attempt("eve@acme.test", "wrong"));
    const guessed = [...burst, ...after].filter((r) => !r.ok && r.reason === "invalid_credentials").length;
    // Whatever the interleaving, the burst and the guesses after it get at most the limit's worth
    // of password checks (a burst may be refused whole: failing closed), and the sequential
    // guesses then use up exactly what is left.
    expect(guessed).toBe(SIGN_IN_EMAIL_LIMIT);
    expect(after.at(-1)).toMatchObject({ reason: "too_many_attempts" });
    expect(await attempt("eve@acme.test", PASSWORD)).toMatchObject({ reason: "too_many_attempts" });
  });

  it("the route answers 401 then a typed 429 with Retry-After, the same for an unknown email", async () => {
    const holder = globalThis as typeof globalThis & { __signpostDb?: unknown };
    const previous = holder.__signpostDb;
    holder.__signpostDb = t.db; // the route's getDb() answers this test's database
    try {
      const post = (email: string, ip: string) =>
        signInRoute(
          new Request("http://signpost.test/api/auth/sign-in", {
            method: "POST",
            headers: {
              origin: "http://signpost.test",
              host: "signpost.test",
              "content-type": "application/json",
              "x-forwarded-for": ip,
            },
            body: JSON.stringify({ email, password: "wrong" }),
          }),
        );
      for (const email of ["adam@acme.test", "ghost@acme.test"]) {
        for (let i = 0; i < SIGN_IN_EMAIL_LIMIT; i++) {
          const res = await post(email, `10.1.0.${i}`);
          expect(res.status).toBe(401);
          expect((await res.json()).error.code).toBe("unauthenticated");
        }
        const res = await post(email, "10.1.1.1");
        expect(res.status).toBe(429);
        const retryAfter = Number(res.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThan(SIGN_IN_WINDOW_MS / 1000 - 60);
        expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_WINDOW_MS / 1000);
        const body = await res.json();
        expect(body).toEqual({
          error: { code: "too_many_attempts", message: expect.any(String), retry_after_s: retryAfter },
        });
      }
    } finally {
      holder.__signpostDb = previous;
    }
  });
});
