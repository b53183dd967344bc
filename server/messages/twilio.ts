/**
 * Twilio's Messages REST API and its webhook signature:
 * - a text is `POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded To,
 *   From and Body, with basic auth AccountSid:AuthToken; 201 and the message's `sid` when taken.
 *   A 429 or 5xx, a timeout or no answer is worth another attempt; another 4xx is final. The
 *   message's idempotency key goes in `I-Twilio-Idempotency-Token`, so a retry after a crash is
 *   the same request to Twilio.
 * - an inbound request carries `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed with the auth
 *   token, of the full URL Twilio called followed by each POST parameter's name and value,
 *   sorted by name.
 * Twilio's answer text is never kept (it may quote the number): only its status and error code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SmsConfig } from '../config';
import type { SmsSender } from './smsProvider';

export function twilioSender(config: SmsConfig, timeoutSeconds: number): SmsSender {
  const endpoint = `${config.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`;
  return {
    async send(sms) {
      const form = new URLSearchParams({ To: sms.to, Body: sms.body });
      form.set(config.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', config.from);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            Authorization: auth,
            'Content-Type': 'application/x-www-form-urlencoded',
            Accept: 'application/json',
            'I-Twilio-Idempotency-Token': sms.idempotencyKey,
          },
          body: form.toString(),
          signal: AbortSignal.timeout(timeoutSeconds * 1000),
        });
      } catch (error) {
        const kind = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'connection failed';
        return { sent: false, error: `Could not reach the SMS provider (${kind}).`, retryable: true };
      }
      const answer = (await res.json().catch(() => null)) as { sid?: unknown; code?: unknown } | null;
      if (res.status === 200 || res.status === 201) {
        if (typeof answer?.sid === 'string') return { sent: true, error: null, retryable: false };
        return { sent: false, error: `The SMS provider answered ${res.status} without a message sid.`, retryable: true };
      }
      const code = typeof answer?.code === 'number' ? ` (error ${answer.code})` : '';
      return { sent: false, error: `The SMS provider answered ${res.status}${code}.`, retryable: res.status === 429 || res.status >= 500 };
    },
  };
}

/** The signature Twilio sends for a POST of `params` to `url`. */
export function twilioSignature(authToken: string, url: string, params: Readonly<Record<string, string>>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether `signature` is Twilio's for this request (compared in constant time). */
export function isTwilioSigned(authToken: string, url: string, params: Readonly<Record<string, string>>, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
