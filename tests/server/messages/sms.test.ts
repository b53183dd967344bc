/**
 * Texts through the outbox against a local Twilio-shaped server: one confirmation text only with
 * the separate SMS consent (stored with its text and hash), none of the participant's answers or
 * contact values in it; an SMS consent without a phone number refused (422) writing nothing;
 * STOP at the signed inbound webhook opts the number out within the request, so a text written
 * afterwards is not sent (so does each of the carriers' other stop words, never a text that only
 * holds one); a forged or unsigned inbound request refused (403) changing nothing; HELP answered
 * with TwiML; without SMS_PROVIDER texts wait. The text is a template staff edit
 * per language: bad input refused writing nothing, the edit previewed with its length, a Spanish
 * run texted the edited Spanish text with no placeholder but the allowed ones, the default back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { seedDemoRun } from '../../../server/demo';
import { contactFields, contacts, messages, referrals, smsOptOuts, smsTemplates } from '../../../server/db/schema';
import { messageOptionsOf, sendDue } from '../../../server/messages/worker';
import { NO_SMS_PROVIDER, TEXTED_STOP } from '../../../server/messages/outbox';
import { twilioSignature } from '../../../server/messages/twilio';
import { SMS_CONSENT_NEEDS_PHONE } from '../../../server/participant/contact.routes';
import { createHarness, doc, json, type Harness } from '../harness';
import { useMessageReceiver } from './messageReceiver';
import { demoPerson, runDemoChannel } from '../../support/demoChannelRun';
import { startTwilioServer, type TwilioServer } from '../../support/twilioServer';

const T0 = new Date('2031-05-06T09:00:00.000Z');
const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-for-tests';
const PUBLIC = 'https://recruit.example';
const silentLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let twilio: TwilioServer;
let h: Harness;
let channel: { mediaChannelId: number; screenerId: number };

/** A run of the demo channel; `smsConsent` as the second box was left. */
const demoRun = (harness: Harness, values: Record<string, string>, smsConsent: boolean | string | undefined, language: 'en' | 'es' = 'en') =>
  runDemoChannel(harness, channel, { language, values, smsConsent });

const lastReferral = async (harness: Harness) => (await harness.db.select().from(referrals).orderBy(referrals.id)).at(-1)!;
const textsOf = async (harness: Harness, referralId: number) =>
  harness.db
    .select()
    .from(messages)
    .where(eq(messages.referralId, referralId))
    .then((rows) => rows.filter((r) => r.channel === 'sms'));

/** A Twilio inbound request, signed as Twilio signs (or not). */
function inbound(
  harness: Harness,
  params: Record<string, string>,
  signature: string | null = twilioSignature(TOKEN, `${PUBLIC}/api/message-sms-inbound`, params),
) {
  return harness.app.request('/api/message-sms-inbound', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(signature === null ? {} : { 'X-Twilio-Signature': signature }) },
    body: new URLSearchParams(params).toString(),
  });
}

beforeAll(async () => {
  twilio = await startTwilioServer();
  h = await createHarness({
    PUBLIC_URL: PUBLIC,
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: '+15005550006',
    TWILIO_API_URL: twilio.url,
  });
  h.clock.set(T0);
  channel = await seedDemoRun(h.db);
});

useMessageReceiver(() => ({ h, receiver: twilio }), T0);

describe('the confirmation text', () => {
  it('goes only with the SMS consent, kept with its text, and holds no answer or contact value', async () => {
    const values = demoPerson(1);
    const { state, offered } = await demoRun(h, values, true);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'completed' });
    expect(offered).toMatch(/^You may text me at this number/);
    const referral = await lastReferral(h);
    const [contact] = await h.db.select().from(contacts).where(eq(contacts.id, referral.contactId!));
    expect(contact!.smsConsentText).toBe(offered);
    expect(contact!.smsConsentTextSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(contact!.smsConsentedAt).toEqual(T0);

    expect(twilio.received).toHaveLength(1);
    const [text] = twilio.received;
    expect(text!.accountSid).toBe(SID);
    expect(text!.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(text!.params.To).toBe('+12125550111');
    expect(text!.params.From).toBe('+15005550006');
    expect(text!.params.Body).toContain('Healthy Heart Study');
    expect(text!.params.Body).toContain('Midtown Heart Center');
    expect(text!.params.Body).toContain('Reply STOP to opt out');
    for (const secret of [...Object.values(values), '212', '555', 'pills', 'diet', 'blood pressure', 'hypertension', '18-64'])
      expect(text!.params.Body).not.toContain(secret);
    const [row] = await textsOf(h, referral.id);
    expect(row).toMatchObject({ status: 'sent', kind: 'participantConfirmation', audience: 'participant', recipientLabel: 'participant' });
    expect(text!.idempotencyKey).toBe(row!.messageId);
  });

  it('is not written without the SMS consent', async () => {
    await demoRun(h, demoPerson(2), undefined);
    const referral = await lastReferral(h);
    expect(await textsOf(h, referral.id)).toEqual([]);
    const [contact] = await h.db.select().from(contacts).where(eq(contacts.id, referral.contactId!));
    expect(contact!.smsConsentText).toBeNull();
    expect(twilio.received).toHaveLength(0);
  });

  it('refuses an SMS consent without a phone number (422), writing nothing', async () => {
    const before = (await h.db.select({ n: count() }).from(contacts))[0]!.n;
    // The phone field made optional for this test and left empty.
    const [phoneField] = await h.db.select().from(contactFields).where(eq(contactFields.name, 'phone'));
    await h.db.update(contactFields).set({ required: false }).where(eq(contactFields.name, 'phone'));
    const { phone: _none, ...withoutPhone } = demoPerson(3);
    const { state } = await demoRun(h, withoutPhone, true);
    await h.db.update(contactFields).set({ required: phoneField!.required }).where(eq(contactFields.name, 'phone'));
    expect(state.phase).not.toBe('finished');
    expect(state.errors).toEqual({ smsConsent: SMS_CONSENT_NEEDS_PHONE });
    const bad = await demoRun(h, demoPerson(4), 'yes');
    expect(bad.state.phase).not.toBe('finished');
    expect((await h.db.select({ n: count() }).from(contacts))[0]!.n).toBe(before);
    expect(twilio.received).toHaveLength(0);
  });
});

describe('the text template', () => {
  const ID = 'participantConfirmation.es.sms';
  const patch = async (id: string, attributes: Record<string, unknown>) =>
    h.request('PATCH', `/api/message-templates/${id}`, { token: await h.token(), body: doc('message-templates', attributes) });

  it('refuses bad input writing nothing, and a kind that is never texted (404)', async () => {
    const pointerOf = async (res: Response) => (await json(res)).errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
    const noStop = await patch(ID, { text: 'Gracias, {{site}} le llamará.' });
    expect(noStop.status).toBe(422);
    expect((await json(noStop.clone())).errors[0].detail).toContain('STOP');
    expect(await pointerOf(noStop)).toEqual(['/data/attributes/text']);
    const long = await patch(ID, { text: `${'x'.repeat(1600)} STOP` });
    expect(long.status).toBe(422);
    expect(await pointerOf(long)).toEqual(['/data/attributes/text']);
    const blank = await patch(ID, { text: '   ' });
    expect(blank.status).toBe(422);
    // A text has no subject or HTML part: an attribute of a mail's template is refused.
    expect((await patch(ID, { subject: 'Hola', text: 'Responda STOP.' })).status).toBeGreaterThanOrEqual(400);
    expect((await patch('newReferral.es.sms', { text: 'Responda STOP.' })).status).toBe(404);
    expect((await patch('participantConfirmation.es.fax', { text: 'Responda STOP.' })).status).toBe(404);
    expect(await h.db.select().from(smsTemplates)).toEqual([]);
  });

  it('is listed, edited, previewed with its length, texted to a Spanish run, and put back to the default', async () => {
    const admin = await h.token();
    const listed = (await json(await h.request('GET', '/api/message-templates', { token: admin }))).data as {
      id: string;
      attributes: Record<string, unknown>;
    }[];
    const shipped = listed.find((t) => t.id === ID)!;
    expect(shipped.attributes).toMatchObject({
      channel: 'sms',
      kind: 'participantConfirmation',
      language: 'es',
      isDefault: true,
      placeholders: ['engagement', 'site', 'town'],
    });
    expect(shipped.attributes).not.toHaveProperty('subject');
    expect(listed.filter((t) => t.attributes.channel === 'sms').map((t) => t.id)).toEqual(['participantConfirmation.en.sms', ID]);
    expect(listed.find((t) => t.id === 'participantConfirmation.es')!.attributes).toMatchObject({ channel: 'email' });

    const saved = await patch(ID, {
      text: '  {{engagement}}: su cita está en {{site}}, {{town}}. {{unsubscribe}}{{answers}}{{email}} Responda STOP para salir.  ',
    });
    expect(saved.status).toBe(200);
    expect((await json(saved)).data.attributes).toMatchObject({
      channel: 'sms',
      isDefault: false,
      text: '{{engagement}}: su cita está en {{site}}, {{town}}. {{unsubscribe}}{{answers}}{{email}} Responda STOP para salir.',
    });
    const expected = 'Healthy Heart Study: su cita está en Midtown Heart Center, New York.  Responda STOP para salir.';
    const preview = (await json(await h.request('GET', `/api/message-templates/${ID}/preview`, { token: admin }))).meta;
    expect(preview).toEqual({ text: expected, characters: expected.length, encoding: 'UCS-2', segments: 2 });

    const values = demoPerson(8);
    await demoRun(h, values, true, 'es');
    expect(twilio.received).toHaveLength(1);
    const body = twilio.received[0]!.params.Body!;
    expect(body).toBe(expected);
    for (const secret of [...Object.values(values), '212', '555', 'pills', 'diet', 'blood pressure', 'hypertension', '18-64', 'message-unsubscribe'])
      expect(body).not.toContain(secret);

    // An English run keeps the shipped English text.
    twilio.received.splice(0);
    await demoRun(h, demoPerson(9), true, 'en');
    expect(twilio.received[0]!.params.Body).toBe(
      'Healthy Heart Study: thank you. Midtown Heart Center (New York) will contact you about next steps. Reply STOP to opt out.',
    );

    expect((await h.request('DELETE', `/api/message-templates/${ID}`, { token: admin })).status).toBe(204);
    expect(await h.db.select().from(smsTemplates)).toEqual([]);
    const back = (await json(await h.request('GET', `/api/message-templates/${ID}/preview`, { token: admin }))).meta;
    expect(back.text).toBe(
      'Healthy Heart Study: gracias. Midtown Heart Center (New York) se pondrá en contacto con usted. Responda STOP para no recibir más mensajes.',
    );
  });
});

describe('the Messages list', () => {
  it("answers each message's channel and filters on it, refusing an unknown channel", async () => {
    await demoRun(h, demoPerson(4), true);
    const referral = await lastReferral(h);
    const admin = await h.token();
    const list = async (query: string) => {
      const res = await h.request('GET', `/api/messages?referralId=${referral.id}${query}`, { token: admin });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { attributes: { channel: string; kind: string; audience: string } }[] }).data.map((m) => m.attributes);
    };
    const all = await list('');
    expect(all.filter((m) => m.channel === 'sms')).toEqual([expect.objectContaining({ kind: 'participantConfirmation', audience: 'participant' })]);
    expect(all.some((m) => m.channel === 'email')).toBe(true);
    expect(all.every((m) => m.channel === 'sms' || m.channel === 'email')).toBe(true);
    const texts = await list('&channel=sms');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.channel).toBe('sms');
    const mails = await list('&channel=email');
    expect(mails.length).toBe(all.length - 1);
    expect(mails.every((m) => m.channel === 'email')).toBe(true);

    const bad = await h.request('GET', '/api/messages?channel=fax', { token: admin });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { source?: { parameter?: string } }[] }).errors[0]!.source?.parameter).toBe('channel');
  });
});

describe('the inbound webhook', () => {
  it('refuses a forged or unsigned request (403), changing nothing', async () => {
    const params = { From: '+12125550155', Body: 'STOP', AccountSid: SID };
    expect((await inbound(h, params, null)).status).toBe(403);
    expect((await inbound(h, params, twilioSignature('not-the-token', `${PUBLIC}/api/message-sms-inbound`, params))).status).toBe(403);
    expect((await inbound(h, { ...params, Body: 'HELLO' }, twilioSignature(TOKEN, `${PUBLIC}/api/message-sms-inbound`, params))).status).toBe(403);
    expect(await h.db.select().from(smsOptOuts)).toEqual([]);
  });

  it('opts a number out on STOP within the request, so a text written afterwards is not sent; answers HELP', async () => {
    const values = demoPerson(5);
    const stop = await inbound(h, { From: '+1 212 555 0115', Body: '  opt out ', AccountSid: SID });
    expect(stop.status).toBe(200);
    expect(await stop.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const [optedOut] = await h.db.select().from(smsOptOuts);
    // The keyed hash, never the number.
    expect(optedOut!.toMatch).not.toContain('555');

    await demoRun(h, values, true);
    const referral = await lastReferral(h);
    expect(await textsOf(h, referral.id)).toEqual([]);
    expect(twilio.received).toHaveLength(0);

    const help = await inbound(h, { From: '+12125550115', Body: 'help', AccountSid: SID });
    expect(await help.text()).toContain('<Message>Study recruitment texts.');
  });

  it('stops a text already waiting: the worker marks it not sent', async () => {
    twilio.reply = 'busy';
    await demoRun(h, demoPerson(6), true);
    const referral = await lastReferral(h);
    const [waiting] = await textsOf(h, referral.id);
    expect(waiting!.status).toBe('retrying');
    expect((await inbound(h, { From: '(212) 555-0116', Body: 'STOP', AccountSid: SID })).status).toBe(200);
    twilio.reply = 'accept';
    twilio.received.splice(0);
    h.clock.set(new Date(T0.getTime() + 3600_000));
    await sendDue(messageOptionsOf({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock }));
    const [after] = await textsOf(h, referral.id);
    expect(after).toMatchObject({ status: 'cancelled', lastError: TEXTED_STOP });
    expect(twilio.received).toHaveLength(0);
  });

  it("opts out on each of the carriers' stop words, in any case, and on nothing that only holds one", async () => {
    const optOuts = async () => (await h.db.select({ n: count() }).from(smsOptOuts))[0]!.n;
    const before = await optOuts();
    const words = ['STOP', 'quit', ' End ', 'Revoke', 'opt  out', 'CANCEL', 'unsubscribe'];
    for (const [i, word] of words.entries()) {
      const res = await inbound(h, { From: `+1212555020${i}`, Body: word, AccountSid: SID });
      expect(res.status, word).toBe(200);
      expect(await optOuts(), word).toBe(before + i + 1);
    }
    for (const [i, body] of ['stop texting me please', 'STOPPED', 'cancel my visit', 'unsubscribed'].entries()) {
      expect((await inbound(h, { From: `+1212555021${i}`, Body: body, AccountSid: SID })).status, body).toBe(200);
    }
    expect(await optOuts()).toBe(before + words.length);
    // INFO is the carriers' other word for help.
    expect(await (await inbound(h, { From: '+12125550220', Body: 'info', AccountSid: SID })).text()).toContain('<Message>Study recruitment texts.');
  });
});

describe('without SMS_PROVIDER', () => {
  it('keeps texts waiting, and answers the webhook 404', async () => {
    const quiet = await createHarness({ PUBLIC_URL: PUBLIC });
    try {
      quiet.clock.set(T0);
      channel = await seedDemoRun(quiet.db);
      await demoRun(quiet, demoPerson(7), true);
      const [text] = await textsOf(quiet, (await lastReferral(quiet)).id);
      expect(text).toMatchObject({ status: 'waiting', lastError: NO_SMS_PROVIDER });
      expect((await inbound(quiet, { From: '+12125550117', Body: 'STOP' })).status).toBe(404);
    } finally {
      await quiet.close();
    }
  });
});
