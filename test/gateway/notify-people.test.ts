import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mailerFromEnv } from "@/server/gateway/mailer";
import { installNotifications } from "@/server/gateway/notify-people";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp-sink";
import { checkoutToConfirmation, createWorld, type World } from "./gateway-world";

/**
 * DESIGN: people are told when something waits for them. Email goes out after the agent's call
 * has answered, through a real SMTP server (a local sink here); a mail server that fails or
 * hangs never fails or delays the call; each person can turn it off.
 */
describe("notifications by email (sqlite)", () => {
  let w: World;
  let sink: SmtpSink;
  let uninstall: (() => void) | undefined;
  const publicUrl = "https://signpost.example.test";

  beforeAll(async () => {
    w = await createWorld("sqlite");
    sink = await startSmtpSink();
  });
  afterEach(() => {
    uninstall?.();
    uninstall = undefined;
  });
  afterAll(async () => {
    await sink?.close();
    await w?.close();
  });

  it("an approval emails the person it is for, with the confirm link on the public URL and the sentence", async () => {
    const mailer = mailerFromEnv({
      SIGNPOST_SMTP_URL: sink.url,
      SIGNPOST_MAIL_FROM: "Signpost <s@acme.test>",
    });
    expect(mailer).not.toBeNull();
    uninstall = installNotifications({ db: w.db, mailer: mailer as NonNullable<typeof mailer>, publicUrl });
    const out = await checkoutToConfirmation(w);
    expect(out).toMatchObject({ outcome: "applied", approval: { status: "pending" } });
    const id = String(out.action_id);
    const mail = await sink.next((m) => m.text.includes(`/confirm/${id}`));
    expect(mail.to).toEqual(["alice@acme.test"]);
    expect(mail.subject).toBe("Approval needed: Pay $41.00 from Store credit");
    expect(mail.text).toContain(`${publicUrl}/confirm/${id}`);
    expect(mail.text).toMatch(/valid until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    mailer?.close();
  });

  it("a mail server that fails or never answers does not fail or hold up the agent's call", async () => {
    const errors: string[] = [];
    const hanging = { send: () => new Promise<void>(() => undefined), close: () => undefined };
    uninstall = installNotifications({ db: w.db, mailer: hanging, publicUrl, log: (m) => errors.push(m) });
    const first = await checkoutToConfirmation(w, w.agent.alice, {
      items: [{ product_id: "prod_mug", quantity: 1 }],
    });
    expect(first.outcome).toBe("applied");
    uninstall();
    const failing = {
      send: async () => {
        throw new Error("connection refused");
      },
      close: () => undefined,
    };
    uninstall = installNotifications({ db: w.db, mailer: failing, publicUrl, log: (m) => errors.push(m) });
    const second = await checkoutToConfirmation(w, w.agent.alice, {
      items: [{ product_id: "prod_mug", quantity: 3 }],
    });
    expect(second.outcome).toBe("applied");
    await expect.poll(() => errors).toContain("notifications: email to alice@acme.test failed");
  });

  it("a person who turned email off gets none; admins get permission requests", async () => {
    const sent: { to: string; subject: string }[] = [];
    uninstall = installNotifications({
      db: w.db,
      mailer: { send: async (m) => void sent.push(m), close: () => undefined },
      publicUrl,
    });
    await w.db.user.updateMany({ where: { email: "alice@acme.test" }, data: { notifyEmail: false } });
    try {
      await checkoutToConfirmation(w, w.agent.alice, { items: [{ product_id: "prod_mug", quantity: 4 }] });
      const asked = await w.gw.requestPermission(w.agent.alice, {
        verb: "submit",
        target: "shop://order/ord_paid/after-sales",
        reason: "a refund",
      });
      expect(asked.outcome).toBe("applied");
      await expect.poll(() => sent.map((m) => m.to)).toContain("adam@acme.test");
      expect(sent.find((m) => m.to === "adam@acme.test")?.subject).toMatch(
        /^Permission request: .* asks to submit shop:\/\/order\/ord_paid\/after-sales$/,
      );
      expect(sent.some((m) => m.to === "alice@acme.test")).toBe(false);
    } finally {
      await w.db.user.updateMany({ where: { email: "alice@acme.test" }, data: { notifyEmail: true } });
    }
  });
});
