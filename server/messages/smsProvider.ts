/**
 * What an SMS provider is to the outbox: it takes one text at a time and answers how it went, as
 * a Mailer does for mail. Its own module, so the provider clients (twilio.ts) and what picks one
 * (sms.ts) both depend on it rather than on each other.
 */
import type { SendOutcome } from './outbox';

export interface Sms {
  to: string;
  body: string;
  /** The same on every attempt of one message: the provider drops a second request with it. */
  idempotencyKey: string;
}

export interface SmsSender {
  send(sms: Sms): Promise<SendOutcome>;
}
