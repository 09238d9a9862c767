import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (the outbox's log line names the file that holds it, never the link). */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer, used when SMTP_URL is set. */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
    close: () => transport.close(),
  };
}

/** The embedded default: each message becomes a file in DATA_DIR/mail, named in a log line. */
export function outboxMailer(dataDir: string, from: string, log: FastifyBaseLogger): Mailer {
  const dir = path.join(dataDir, 'mail');
  return {
    async send(m) {
      await fs.promises.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${m.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
      const eml = [`From: ${from}`, `To: ${m.to}`, `Subject: ${m.subject}`, 'Content-Type: text/plain; charset=utf-8', '', m.text].join(
        '\r\n',
      );
      await fs.promises.writeFile(file, eml);
      // The link (a sign-in, verification or reset code) stays in the file: logs are read by more people than mail is.
      log.info({ to: m.to, subject: m.subject, file }, `mail to ${m.to}: ${m.subject} (its link is in ${file})`);
    },
    close: () => undefined,
  };
}
