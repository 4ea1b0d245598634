import { SMTPServer } from "smtp-server";

export type SunkMail = { from: string; to: string[]; subject: string; text: string; raw: string };
export type SmtpSink = {
  url: string;
  mails: SunkMail[];
  /** Resolves with the first mail (already here or still to come) that matches. */
  next(match: (m: SunkMail) => boolean): Promise<SunkMail>;
  close(): Promise<void>;
};

/** Undoes quoted-printable (soft line breaks, =XX bytes), enough to read links and subjects. */
function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** "=?UTF-8?Q?…?=" / "=?UTF-8?B?…?=" encoded words in a header. */
function decodeHeader(v: string): string {
  return v.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, body: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(body, "base64").toString("utf8")
      : decodeQuotedPrintable(body.replaceAll("_", " ")),
  );
}

/** The text/plain part of a message as nodemailer writes it (quoted-printable or base64). */
function plainText(raw: string): string {
  const part =
    /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?Content-Transfer-Encoding: ([\w-]+)\r?\n\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(
      raw,
    );
  if (!part) return raw;
  const [, enc, body] = part;
  if (enc?.toLowerCase() === "base64") return Buffer.from(body ?? "", "base64").toString("utf8");
  if (enc?.toLowerCase() === "quoted-printable") return decodeQuotedPrintable(body ?? "");
  return body ?? "";
}

/** An in-process SMTP server that keeps every message it is given (no TLS, no auth): the tests' mailbox. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const waiters: { match: (m: SunkMail) => boolean; resolve: (m: SunkMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        raw += chunk;
      });
      stream.on("end", () => {
        const header = raw.split(/\r?\n\r?\n/)[0] ?? "";
        const unfolded = header.replace(/\r?\n[ \t]+/g, " ");
        const subject = decodeHeader(/^Subject: (.*)$/im.exec(unfolded)?.[1] ?? "");
        const mail: SunkMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          text: plainText(raw),
          raw,
        };
        mails.push(mail);
        for (const w of [...waiters])
          if (w.match(mail)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(match) {
      const found = mails.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
