/**
 * Texts (SMS) through a provider: the outbox hands one text at a time to an `SmsSender`, as it
 * hands mail to a Mailer. Only Twilio's REST API is spoken today (twilio.ts); SMS_PROVIDER names
 * it. The keywords a participant texts to stop or ask for help are the carriers' own.
 */
import type { SmsConfig } from '../config';
import type { SmsSender } from './smsProvider';
import { twilioSender } from './twilio';

/** Texted to opt out (trimmed, any case): every engagement's texts stop at once. */
export const STOP_KEYWORDS = ['STOP', 'QUIT', 'END', 'REVOKE', 'OPT OUT', 'CANCEL', 'UNSUBSCRIBE'] as const;
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

export type Keyword = 'stop' | 'help' | null;

export function keywordOf(body: string): Keyword {
  const word = body.trim().replace(/\s+/g, ' ').toUpperCase();
  if ((STOP_KEYWORDS as readonly string[]).includes(word)) return 'stop';
  if ((HELP_KEYWORDS as readonly string[]).includes(word)) return 'help';
  return null;
}

const senders = new Map<string, SmsSender>();
/** The sender SMS_PROVIDER configures; null without one (texts wait). */
export function smsSenderFor(config: SmsConfig | null, timeoutSeconds: number): SmsSender | null {
  if (!config) return null;
  const key = `${config.apiUrl} ${config.accountSid} ${config.from} ${timeoutSeconds}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = twilioSender(config, timeoutSeconds);
    senders.set(key, sender);
  }
  return sender;
}
