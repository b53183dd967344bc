/**
 * Sending one e-mail through the mail server SMTP_URL names (nodemailer; TLS as the URL says:
 * smtps:// at once, smtp:// upgraded by STARTTLS when offered). A 5xx answer is final; a 4xx,
 * a timeout or a refused connection is worth another attempt.
 */
import nodemailer from 'nodemailer';
import type { SendOutcome } from './outbox';

export interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  headers: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<SendOutcome>;
  close(): void;
}

/** `timeoutSeconds`: the longest the server may stay silent (connecting, greeting, any answer). */
export function smtpMailer(url: string, timeoutSeconds: number): Mailer {
  const ms = timeoutSeconds * 1000;
  const transport = nodemailer.createTransport(url, {});
  // Set apart from the URL so that a URL without them still gets bounded waits.
  Object.assign(transport.options, { connectionTimeout: ms, greetingTimeout: ms, socketTimeout: ms });
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
        });
        return { sent: true, error: null, retryable: false };
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        const status = typeof code === 'number' ? code : null;
        // The server's own words may quote the address: only its code and nodemailer's kind of failure are kept.
        const kind = (error as { code?: unknown }).code;
        const what =
          status !== null
            ? `The mail server answered ${status}.`
            : `Could not reach the mail server (${typeof kind === 'string' ? kind : 'connection failed'}).`;
        return { sent: false, error: what, retryable: status === null || status < 500 };
      }
    },
    close: () => transport.close(),
  };
}
