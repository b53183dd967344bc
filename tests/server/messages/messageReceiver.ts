/**
 * The lifecycle the message tests share around a stand-in mail or text server: before each test
 * it holds nothing and accepts again (and, given `at`, the server's clock is back there); after
 * the file, the messages under way settle before the database closes, so that none is written
 * into a closed one, and the stand-in closes last.
 */
import { afterAll, beforeEach } from 'vitest';
import { settleMessages } from '../../../server/messages/worker';
import type { Harness } from '../harness';

interface Receiver {
  received: unknown[];
  reply: string;
  close(): Promise<void>;
}

/** `get` reads the file's own variables, made in its beforeAll. */
export function useMessageReceiver(get: () => { h: Harness; receiver: Receiver }, at?: string | Date): void {
  beforeEach(() => {
    const { h, receiver } = get();
    receiver.received.splice(0);
    receiver.reply = 'accept';
    if (at) h.clock.set(at);
  });
  afterAll(async () => {
    const { h, receiver } = get();
    await settleMessages();
    await h.close();
    await receiver.close();
  });
}

/** The settings a message test's server mails with: the stand-in at `smtp`, the study team's sender and the product's public address, beside `extra`. */
export const mailEnv = (smtp: { url: string }, extra: Record<string, string> = {}): Record<string, string> => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Study team <studies@recruit.example>',
  PUBLIC_URL: 'https://recruit.example',
  ...extra,
});
