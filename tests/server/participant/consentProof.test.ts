/**
 * Consent a sponsor can prove, on the real server and database with a real local receiver: the
 * contact keeps the consent text exactly as the contact step showed it, its SHA-256, the
 * language and the approved survey version answered; the push carries them with the campaign
 * parameters; the RMS audits list (and so its CSV) shows them.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, type ParticipantFixture, runQualified, sendReferralsTo, TOKEN_HEADER } from '../../support/participantFixture';
import { oForms, screenerMessages } from '../../../server/db/schema';
import { startRecordSystem, type RecordSystemReceiver } from '../../support/recordSystemReceiver';
import { settleDeliveries } from '../../../server/rms/worker';
import { newWebhookSecret } from '../../support/standardWebhooks';
import { contactLeft } from '../participantServer';

let h: Harness;
let f: ParticipantFixture;
let receiver: RecordSystemReceiver;
const received = () => receiver.received.map((r) => r.body);

beforeAll(async () => {
  receiver = await startRecordSystem();
  h = await createHarness();
  h.clock.set('2031-07-01T12:00:00Z');
  f = await createParticipantFixture(h.db);
  await sendReferralsTo(h.db, f, { name: 'Consent receiver', endpointUrl: `${receiver.origin}/r`, signingSecret: h.phi.seal(newWebhookSecret()) });
});

afterAll(async () => {
  await settleDeliveries();
  await receiver.close();
  await h.close();
});

describe('the consent proof', () => {
  it('is kept with the contact as shown, carried by the push with the campaign, and listed for staff', async () => {
    const { submissionId, token } = await runQualified(h, f, { language: 'es', mediaChannelUrl: 'https://partner.example/p?utm_source=radio&email=x@y.z' });
    const shown = await json(await h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`, { headers: { [TOKEN_HEADER]: token } }));
    const consentShown: string = shown.meta.messages.consent;
    expect(consentShown.length).toBeGreaterThan(10);
    const contact = await contactLeft(h, f, { submissionId, token }, { first_name: 'Eva', email: 'eva@example.com', phone: '212-555-0177' });

    const sha256 = createHash('sha256').update(consentShown, 'utf8').digest('hex');
    const [form] = await h.db.select().from(oForms).where(eq(oForms.id, f.oFormId));
    expect(contact).toMatchObject({
      consentText: consentShown,
      consentTextSha256: sha256,
      language: 'es',
      consentSurveyId: f.oFormId,
      consentSurveyVersion: form!.version,
      consentedAt: new Date('2031-07-01T12:00:00Z'),
    });

    expect(received()).toHaveLength(1);
    const body = JSON.parse(received()[0]!);
    expect(body.data.consent).toEqual({
      acceptedTerms: true,
      consentedAt: '2031-07-01T12:00:00.000Z',
      language: 'es',
      text: consentShown,
      textSha256: sha256,
      surveyVersion: form!.version,
    });
    expect(body.data.attribution.utm).toEqual({ utm_source: 'radio' });

    const list = await json(await h.request('GET', `/api/rms-audits?contactId=${contact!.id}`, { token: await h.token() }));
    expect(list.data[0].attributes).toMatchObject({
      consentedAt: '2031-07-01T12:00:00.000Z',
      consentLanguage: 'es',
      consentSurveyVersion: form!.version,
      consentText: consentShown,
      consentTextSha256: sha256,
    });
  });

  it('hashes the consent text exactly as shown, its markup included', async () => {
    const g = await createParticipantFixture(h.db);
    await sendReferralsTo(h.db, g, { name: 'Markup receiver', endpointUrl: `${receiver.origin}/markup`, signingSecret: h.phi.seal(newWebhookSecret()) });
    await h.db.insert(screenerMessages).values({
      screenerId: g.screenerId,
      outcome: 'trialSiteSelected',
      contactFormMessage: 'Almost done.',
      consentMessage: '<p>I agree to be <strong>contacted</strong> about <em>this</em> study.</p>',
      translations: {},
    });
    const { submissionId, token } = await runQualified(h, g);
    const shown: string = (
      await json(await h.request('GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`, { headers: { [TOKEN_HEADER]: token } }))
    ).meta.messages.consent;
    expect(shown).toContain('<strong>contacted</strong>');
    const before = received().length;
    const contact = await contactLeft(h, g, { submissionId, token }, { first_name: 'Ida', email: 'ida@example.com', phone: '212-555-0178' });
    const sha256 = createHash('sha256').update(shown, 'utf8').digest('hex');
    expect(contact).toMatchObject({ consentText: shown, consentTextSha256: sha256 });
    // The markup is part of what was agreed to: the text without it hashes otherwise.
    expect(sha256).not.toBe(
      createHash('sha256')
        .update(shown.replace(/<[^>]*>/g, ''), 'utf8')
        .digest('hex'),
    );
    const pushed = received()
      .slice(before)
      .map((b) => JSON.parse(b));
    expect(pushed).toHaveLength(1);
    expect(pushed[0].data.consent).toMatchObject({ text: shown, textSha256: sha256 });
  });
});
