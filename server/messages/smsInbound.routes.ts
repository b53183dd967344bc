/**
 * POST /api/message-sms-inbound: the SMS provider's inbound webhook (Twilio's form-encoded
 * From, Body, …), answered with TwiML. Public but signed: the X-Twilio-Signature header must be
 * the provider's signature of the full URL it called (PUBLIC_URL + this path) and the form's
 * parameters under TWILIO_AUTH_TOKEN (twilio.ts), or the request is refused (403) and changes
 * nothing. The number and its words are never logged.
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { nowOf, type AppEnv, type Deps } from '../context';
import { answerText } from '../http/responseText';
import { badRequest, forbidden, notFound, unsupportedMediaType } from '../http/errors';
import { describe } from '../openapi/describe';
import { contactMatcherOf } from '../security/contactMatch';
import { applyInboundText } from './smsInbound';
import { SMS_HELP_TEXT } from './smsTexts';
import { isTwilioSigned } from './twilio';
import { baseUrlOf } from './worker';

/** The parameters of Twilio's inbound message this route reads; Twilio sends more, all signed. */
const InboundText = v.looseObject({ From: v.pipe(v.string(), v.minLength(1)), Body: v.optional(v.string()) });

export const SMS_INBOUND_PATH = '/api/message-sms-inbound';
export const FORGED_SMS = 'The request is not signed by the SMS provider.';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const twiml = (message: string | null) =>
  `<?xml version="1.0" encoding="UTF-8"?><Response>${message === null ? '' : `<Message>${xml(message)}</Message>`}</Response>`;

export function messageSmsInboundRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();

  app.post(
    '/',
    describe({
      summary: 'SMS provider: a text a participant sent (STOP, HELP)',
      access: 'smsProvider',
      body: { form: InboundText },
      answer: { media: 'text/xml' },
    }),
    async (c) => {
      const sms = deps.config.sms;
      if (!sms) throw notFound('SMS provider');
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) throw unsupportedMediaType();
      const form = new URLSearchParams(await c.req.text());
      const params: Record<string, string> = {};
      for (const [name, value] of form) {
        // Twilio sends each parameter once; a repeated one is not a request it signed.
        if (name in params) throw forbidden(FORGED_SMS);
        params[name] = value;
      }
      const query = new URL(c.req.url).search;
      if (!isTwilioSigned(sms.authToken, `${baseUrlOf(deps)}${SMS_INBOUND_PATH}${query}`, params, c.req.header('x-twilio-signature')))
        throw forbidden(FORGED_SMS);
      const text = c.var.body.parse(params);
      if (!text.success) throw badRequest("'From' is required.", 'From');
      const keyword = await applyInboundText(deps.db, contactMatcherOf(deps), text.output.From, text.output.Body ?? '', nowOf(deps));
      return answerText(c, twiml(keyword === 'help' ? SMS_HELP_TEXT : null), 200, { 'Content-Type': 'text/xml; charset=utf-8', 'Cache-Control': 'no-store' });
    },
  );

  return app;
}
