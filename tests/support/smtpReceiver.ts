/**
 * A real SMTP server for tests (the smtp-server package on 127.0.0.1, no TLS, no sign-in): it
 * keeps every message it accepted, raw and parsed with mailparser. `reply` decides per message:
 * accept (250), a temporary refusal (451) or a final one (550); `hold` keeps the answer to the
 * message's data until released (a server crash in the middle of a send). A message counts as
 * received only when its 250 was written to a connection still open, as a real MTA would
 * hand it on.
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
  to: string[];
}

export type SmtpReply = 'accept' | 'temporary' | 'final';

export interface SmtpReceiver {
  url: string;
  received: ReceivedMail[];
  /** Connections that sent a message whose answer was never given (the client went away). */
  abandoned: number;
  /** Messages whose answer was held (see `hold`). */
  held: number;
  reply: SmtpReply;
  /** While set, each message's answer waits for this promise. */
  hold: Promise<void> | null;
  /** Resolves once `n` messages have been received. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const closed = new Set<string>();
  const receiver: SmtpReceiver = {
    url: '',
    received: [],
    abandoned: 0,
    held: 0,
    reply: 'accept',
    hold: null,
    waitFor(n, timeoutMs = 20_000) {
      if (receiver.received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`SMTP: ${receiver.received.length} of ${n} messages after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (receiver.hold) {
          receiver.held++;
          await receiver.hold;
        }
        if (receiver.reply === 'temporary') return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        if (receiver.reply === 'final') return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        // The sender may have died while we waited: then no 250 reaches it, and the message is not taken.
        if (closed.has(session.id)) {
          receiver.abandoned++;
          return callback(new Error('connection closed'));
        }
        const parsed = await simpleParser(raw);
        receiver.received.push({ raw, parsed, to: session.envelope.rcptTo.map((r) => r.address) });
        for (const w of waiters.filter((w) => receiver.received.length >= w.n)) w.resolve();
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  receiver.url = `smtp://127.0.0.1:${port}`;
  return receiver;
}
