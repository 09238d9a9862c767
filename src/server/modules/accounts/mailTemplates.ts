import type { MailMessage } from '../../adapters/mail/mailer';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(to: string, subject: string, intro: string, action: string, link: string, outro: string): MailMessage {
  const text = `${intro}\n\n${action}: ${link}\n\n${outro}\n\n— Clipseek`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111">
<p>${escape(intro)}</p>
<p><a href="${escape(link)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">${escape(action)}</a></p>
<p style="color:#555;font-size:13px">${escape(outro)}<br>${escape(link)}</p>
<p>— Clipseek</p></body></html>`;
  return { to, subject, text, html, link };
}

export const verificationMail = (to: string, link: string) =>
  layout(
    to,
    'Confirm your email for Clipseek',
    'Welcome to Clipseek! Please confirm your email address to start adding videos.',
    'Confirm my email',
    link,
    'This link works once and expires in 24 hours. If you did not create an account, ignore this message.',
  );

export const resetMail = (to: string, link: string) =>
  layout(
    to,
    'Reset your Clipseek password',
    'Someone asked to reset the password of your Clipseek account.',
    'Choose a new password',
    link,
    'This link works once and expires in 1 hour. If it was not you, ignore this message: your password stays as it is.',
  );
