/**
 * The `fhir` provider against a small FHIR server (tests/support/fhirServer.ts, which processes
 * transactions and their conditional creates): the referral arrives as an R4 transaction Bundle
 * that validates against HL7's R4 JSON schema (tests/fixtures/fhir), with the mapping the
 * table in docs/record-system.md promises; posted again (a resend), it creates nothing twice, with or without an
 * e-mail contact field; an OperationOutcome in a failure is kept readably in the audit; and a
 * ResearchSubject status posted back updates the referral counts, a refused one answering an
 * OperationOutcome.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Ajv, type ValidateFunction } from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type {
  Bundle,
  Consent,
  Location,
  Organization,
  Patient,
  Questionnaire,
  QuestionnaireResponse,
  ResearchStudy,
  ResearchSubject,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import { createParticipantFixture, type ParticipantFixture, runQualified } from '../../support/participantFixture';
import { contactLeft } from '../participantServer';
import {
  contactFieldScreeners,
  contactFields,
  countries,
  engagements,
  referralEvents,
  referrals,
  rmsAudits,
  rmsDeliveries,
  rmsProviders,
  siteLocations,
  sponsors,
} from '../../../server/db/schema';
import { settleDeliveries } from '../../../server/rms/worker';
import {
  optionSystem,
  questionnaireUrl,
  referralBundle,
  SITE_EXTENSION,
  SITE_IDENTIFIER_SYSTEM,
  SITE_LOCATION_SYSTEM,
  SPONSOR_IDENTIFIER_SYSTEM,
} from '../../../server/rms/fhir';
import { testReferralFacts } from '../../../server/rms/payload';
import { startFhirServer, type FhirServer } from '../../support/fhirServer';
import { newWebhookSecret, signStandardWebhook } from '../../support/standardWebhooks';

const T0 = new Date('2031-07-08T12:00:00.000Z');
const SECRET = newWebhookSecret();
const BEARER = 'fhir-server-token-91f2';
const VALUES = { first_name: 'Ifeoma', email: 'ifeoma.okafor@example.com', phone: '212-555-0199' };

let h: Harness;
let f: ParticipantFixture;
let superToken: string;
let providerId: number;
let fhir: FhirServer;
let validate: ValidateFunction;

const OUTCOME = {
  resourceType: 'OperationOutcome',
  issue: [
    { severity: 'error', code: 'required', details: { text: 'Patient.name is required' }, expression: ['Patient.name'] },
    { severity: 'warning', code: 'business-rule', diagnostics: 'Study PROTO-7 is closed to candidates' },
  ],
};

function schemaValidator(): ValidateFunction {
  const file = path.resolve(import.meta.dirname, '../../fixtures/fhir/fhir.schema.json.gz');
  const { id, ...schema } = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as Record<string, unknown>;
  // Draft-06 names the schema `id`; ajv 8 reads only `$id`.
  schema.$id = id;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  return ajv.compile(schema);
}

async function contactRun(fixture: ParticipantFixture = f, values: Record<string, string> = VALUES) {
  const { submissionId, token } = await runQualified(h, fixture);
  const contact = await contactLeft(h, fixture, { submissionId, token }, values);
  const [delivery] = await h.db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contact.id));
  return { contact, delivery: delivery! };
}

const resources = <T>(bundle: Bundle, type: string) =>
  (bundle.entry ?? []).filter((e) => e.resource?.resourceType === type) as {
    resource: T;
    request: { ifNoneExist?: string; url: string; method: string };
    fullUrl: string;
  }[];

beforeAll(async () => {
  validate = schemaValidator();
  fhir = await startFhirServer();
  h = await createHarness({ RMS_RETRY_SCHEDULE: '60' });
  h.clock.set(T0);
  superToken = await h.token();
  f = await createParticipantFixture(h.db);
  const [provider] = await h.db
    .insert(rmsProviders)
    .values({
      name: 'Sponsor FHIR server',
      kind: 'fhir',
      endpointUrl: fhir.url,
      signingSecret: h.phi.seal(SECRET),
      bearerToken: h.phi.seal(BEARER),
      timeoutMs: 10_000,
    })
    .returning();
  providerId = provider!.id;
  await h.db.update(engagements).set({ rmsProviderId: providerId, protocolIdentifier: 'PROTO-7' }).where(eq(engagements.id, f.engagementIds[0]));
  const [us] = await h.db.select().from(countries).where(eq(countries.isoCode, 'US'));
  await h.db.update(siteLocations).set({ countryId: us!.id }).where(eq(siteLocations.id, f.siteLocationId));
});

afterAll(async () => {
  await settleDeliveries();
  await fhir?.close();
  await h.close();
});

let received: FhirServer['received'];
beforeEach(() => {
  fhir.fail = null;
  fhir.received.length = 0;
  received = fhir.received;
});

describe('the FHIR provider', () => {
  it('posts an R4 transaction Bundle that validates against the R4 schema, mapped as docs/record-system.md says', async () => {
    const { contact, delivery } = await contactRun();
    expect(delivery).toMatchObject({ status: 'delivered' });
    expect(received).toHaveLength(1);
    const { headers, bundle } = received[0]!;
    expect(headers['content-type']).toBe('application/fhir+json');
    expect(headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    // The schema is really checking: a ResearchSubject with a status R4 does not have fails it.
    const broken = structuredClone(bundle);
    (resources<ResearchSubject>(broken, 'ResearchSubject')[0]!.resource as { status: string }).status = 'enrolled';
    expect(validate(broken)).toBe(false);

    const referral = `urn:uuid:${delivery.referralKey}`;
    const byReferral = `identifier=${encodeURIComponent(`urn:ietf:rfc:3986|${referral}`)}`;
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'transaction', identifier: { system: 'urn:ietf:rfc:3986', value: referral } });
    const [patient] = resources<Patient>(bundle, 'Patient');
    expect(patient!.request).toEqual({ method: 'POST', url: 'Patient', ifNoneExist: byReferral });
    expect(patient!.resource).toMatchObject({
      identifier: [{ system: 'urn:ietf:rfc:3986', value: referral }],
      name: [{ given: ['Ifeoma'] }],
      telecom: [
        { system: 'email', value: VALUES.email },
        { system: 'phone', value: VALUES.phone },
      ],
      birthDate: '1980-06-15',
      address: [{ postalCode: '10001' }],
    });
    // The site has no record-system id nor site id here: it is found by its own id.
    const [site] = resources<Location>(bundle, 'Location');
    expect(site!.request.ifNoneExist).toBe(`identifier=${encodeURIComponent(`${SITE_LOCATION_SYSTEM}|${f.siteLocationId}`)}`);
    expect(site!.resource).toMatchObject({
      identifier: [{ system: SITE_LOCATION_SYSTEM, value: String(f.siteLocationId) }],
      name: expect.any(String),
      address: { postalCode: '10001', city: 'New York', country: 'US' },
    });
    const [sponsorOrg] = resources<Organization>(bundle, 'Organization');
    const [sponsor] = await h.db.select().from(sponsors).where(eq(sponsors.id, f.sponsorId));
    expect(sponsorOrg!.resource).toMatchObject({ name: sponsor!.name, identifier: [{ system: SPONSOR_IDENTIFIER_SYSTEM, value: sponsor!.identification }] });
    const [study] = resources<ResearchStudy>(bundle, 'ResearchStudy');
    expect(study!.request.ifNoneExist).toBe(`identifier=${encodeURIComponent('urn:trial-recruit:fhir:protocol-identifier|PROTO-7')}`);
    expect(study!.resource).toMatchObject({
      identifier: [{ value: 'PROTO-7' }],
      title: expect.stringContaining('Study one'),
      status: 'active',
      sponsor: { reference: sponsorOrg!.fullUrl },
      site: [{ reference: site!.fullUrl }],
    });
    const [subject] = resources<ResearchSubject>(bundle, 'ResearchSubject');
    expect(subject!.request.ifNoneExist).toBe(byReferral);
    expect(subject!.resource).toMatchObject({
      status: 'candidate',
      identifier: [{ system: 'urn:ietf:rfc:3986', value: referral }],
      study: { reference: study!.fullUrl, identifier: { value: 'PROTO-7' } },
      individual: { reference: patient!.fullUrl },
      extension: [{ valueReference: { reference: site!.fullUrl } }],
    });
    const [consent] = resources<Consent>(bundle, 'Consent');
    expect(consent!.resource).toMatchObject({
      status: 'active',
      dateTime: contact.consentedAt!.toISOString(),
      patient: { reference: patient!.fullUrl },
      sourceAttachment: { language: 'en' },
    });

    // The survey version as a Questionnaire, its canonical named by the answers.
    const [questionnaire] = resources<Questionnaire>(bundle, 'Questionnaire');
    const url = questionnaireUrl(f.oFormIdentity);
    expect(questionnaire!.request.ifNoneExist).toBe(`url=${encodeURIComponent(url)}&version=1`);
    expect(questionnaire!.resource).toMatchObject({ url, version: '1', status: 'active' });
    expect(questionnaire!.resource.item!.map((i) => [i.linkId, i.type, i.repeats ?? false])).toEqual([
      ['q_choice', 'choice', false],
      ['q_dob', 'date', false],
      ['q_text', 'string', false],
      ['q_zip', 'string', false],
      ['q_conditions', 'choice', true],
    ]);
    expect(questionnaire!.resource.item![0]!.answerOption![0]).toEqual({
      valueCoding: { system: optionSystem(f.oFormIdentity, 'q_choice'), code: 'yes', display: 'yes' },
    });
    const [answers] = resources<QuestionnaireResponse>(bundle, 'QuestionnaireResponse');
    expect(answers!.resource).toMatchObject({ questionnaire: `${url}|1`, subject: { reference: subject!.fullUrl }, source: { reference: patient!.fullUrl } });
    expect(answers!.resource.item).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          linkId: 'q_choice',
          answer: [{ valueCoding: { system: optionSystem(f.oFormIdentity, 'q_choice'), code: 'yes', display: 'yes' } }],
        }),
        expect.objectContaining({ linkId: 'q_dob', answer: [{ valueDate: '1980-06-15' }] }),
        expect.objectContaining({ linkId: 'q_text', answer: [{ valueString: 'hello' }] }),
        expect.objectContaining({
          linkId: 'q_conditions',
          answer: [{ valueCoding: { system: optionSystem(f.oFormIdentity, 'q_conditions'), code: 'a', display: 'a' } }],
        }),
      ]),
    );
    // Every answer's coding is one its Questionnaire item offers.
    for (const item of answers!.resource.item!) {
      const offered = questionnaire!.resource.item!.find((i) => i.linkId === item.linkId)!;
      for (const a of item.answer!.filter((x) => x.valueCoding)) expect(offered.answerOption).toContainEqual({ valueCoding: a.valueCoding });
    }
  });

  it("attaches the exact terms the participant agreed to, with FHIR's SHA-1 of them", async () => {
    const { contact } = await contactRun();
    const [consent] = resources<Consent>(received[0]!.bundle, 'Consent');
    const attachment = consent!.resource.sourceAttachment!;
    expect(contact.consentText).toEqual(expect.any(String));
    expect(attachment).toMatchObject({ contentType: 'text/html', language: 'en', creation: contact.consentedAt!.toISOString() });
    expect(Buffer.from(attachment.data!, 'base64').toString('utf8')).toBe(contact.consentText);
    expect(attachment.hash).toBe(createHash('sha1').update(contact.consentText!, 'utf8').digest('base64'));
  });

  it('points every reference in the Bundle at an entry of the resource type it names', async () => {
    await contactRun();
    const { bundle } = received[0]!;
    const typeOf = new Map((bundle.entry ?? []).map((e) => [e.fullUrl!, e.resource!.resourceType]));
    const target = (reference: { reference?: string } | undefined) => typeOf.get(reference?.reference ?? '') ?? `nothing (${reference?.reference})`;
    const [subject] = resources<ResearchSubject>(bundle, 'ResearchSubject');
    const [consent] = resources<Consent>(bundle, 'Consent');
    const [answers] = resources<QuestionnaireResponse>(bundle, 'QuestionnaireResponse');
    const [study] = resources<ResearchStudy>(bundle, 'ResearchStudy');
    expect({
      'ResearchSubject.individual': target(subject!.resource.individual),
      'ResearchSubject.consent': target(subject!.resource.consent),
      'ResearchSubject site': target(subject!.resource.extension?.find((e) => e.url === SITE_EXTENSION)?.valueReference),
      'ResearchSubject.study': target(subject!.resource.study),
      'ResearchStudy.sponsor': target(study!.resource.sponsor),
      'ResearchStudy.site': target(study!.resource.site?.[0]),
      'Consent.patient': target(consent!.resource.patient),
      'QuestionnaireResponse.subject': target(answers!.resource.subject),
      'QuestionnaireResponse.source': target(answers!.resource.source),
    }).toEqual({
      'ResearchSubject.individual': 'Patient',
      'ResearchSubject.consent': 'Consent',
      'ResearchSubject site': 'Location',
      'ResearchSubject.study': 'ResearchStudy',
      'ResearchStudy.sponsor': 'Organization',
      'ResearchStudy.site': 'Location',
      'Consent.patient': 'Patient',
      'QuestionnaireResponse.subject': 'ResearchSubject',
      'QuestionnaireResponse.source': 'Patient',
    });
    // And no reference anywhere in it points outside the Bundle.
    const references: string[] = [];
    JSON.stringify(bundle, (key, value: unknown) => (key === 'reference' && typeof value === 'string' ? void references.push(value) : value));
    expect(references.length).toBeGreaterThanOrEqual(9);
    expect(references.filter((r) => !typeOf.has(r))).toEqual([]);
  });

  it('creates every entry conditionally, each by the key that finds its earlier copy', async () => {
    await h.db.update(siteLocations).set({ siteId: 'NYC-PENN-1' }).where(eq(siteLocations.id, f.siteLocationId));
    const { delivery } = await contactRun();
    const byReferral = `identifier=${encodeURIComponent(`urn:ietf:rfc:3986|urn:uuid:${delivery.referralKey}`)}`;
    const conditions = Object.fromEntries(received[0]!.bundle.entry!.map((e) => [e.request!.url, e.request!.ifNoneExist]));
    const [sponsor] = await h.db.select().from(sponsors).where(eq(sponsors.id, f.sponsorId));
    expect(conditions).toEqual({
      Organization: `identifier=${encodeURIComponent(`${SPONSOR_IDENTIFIER_SYSTEM}|${sponsor!.identification}`)}`,
      ResearchStudy: `identifier=${encodeURIComponent('urn:trial-recruit:fhir:protocol-identifier|PROTO-7')}`,
      Questionnaire: `url=${encodeURIComponent(questionnaireUrl(f.oFormIdentity))}&version=1`,
      Patient: byReferral,
      Location: `identifier=${encodeURIComponent(`${SITE_IDENTIFIER_SYSTEM}|NYC-PENN-1`)}`,
      ResearchSubject: byReferral,
      Consent: byReferral,
      QuestionnaireResponse: byReferral,
    });
    expect(received[0]!.bundle.entry!.every((e) => e.request!.method === 'POST')).toBe(true);
    // The Location keeps its own id too, so either finds it.
    expect(resources<Location>(received[0]!.bundle, 'Location')[0]!.resource.identifier).toEqual([
      { system: SITE_IDENTIFIER_SYSTEM, value: 'NYC-PENN-1' },
      { system: SITE_LOCATION_SYSTEM, value: String(f.siteLocationId) },
    ]);
  });

  it.each([
    ['with', VALUES],
    ['without', { first_name: 'Tomasz', phone: '212-555-0123' }],
  ])('creates nothing twice when a referral is posted again, %s an e-mail field', async (_, values) => {
    const fixture = await createParticipantFixture(h.db);
    await h.db
      .update(engagements)
      .set({ rmsProviderId: providerId, protocolIdentifier: `PROTO-${fixture.engagementIds[0]}` })
      .where(eq(engagements.id, fixture.engagementIds[0]));
    if (!('email' in values)) {
      const [email] = await h.db.select().from(contactFields).where(eq(contactFields.name, 'email'));
      await h.db
        .delete(contactFieldScreeners)
        .where(and(eq(contactFieldScreeners.screenerId, fixture.screenerId), eq(contactFieldScreeners.contactFieldId, email!.id)));
    }
    const { contact, delivery } = await contactRun(fixture, values);
    expect(delivery.status).toBe('delivered');
    const created = fhir.counts();
    for (const type of ['Organization', 'Location', 'ResearchStudy', 'Questionnaire', 'Patient', 'ResearchSubject', 'Consent', 'QuestionnaireResponse']) {
      expect(fhir.store.get(type)?.length, type).toBeGreaterThan(0);
    }
    for (let resend = 0; resend < 3; resend++) {
      const again = await h.request('POST', `/api/resend-rms-audit/${contact.id}?again=true`, { token: superToken });
      expect(again.status).toBe(201);
    }
    expect(received).toHaveLength(4);
    expect(validate(received[3]!.bundle), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(fhir.counts()).toEqual(created);
    // The stored resources point at each other as the Bundle said.
    const subject = fhir.store.get('ResearchSubject')!.at(-1) as ResearchSubject;
    expect(subject.individual!.reference).toMatch(/^Patient\/\d+$/);
    expect(subject.study.reference).toMatch(/^ResearchStudy\/\d+$/);
  });

  it("keeps a failure's OperationOutcome readably in the audit", async () => {
    fhir.fail = { status: 422, body: OUTCOME };
    const { contact, delivery } = await contactRun();
    expect(delivery.status).toBe('undelivered');
    const [audit] = await h.db.select().from(rmsAudits).where(eq(rmsAudits.contactId, contact.id));
    expect(audit!.responseMessage).toBe(
      'HTTP 422 Unprocessable Entity: error required: Patient.name is required (Patient.name); warning business-rule: Study PROTO-7 is closed to candidates',
    );
    expect(JSON.parse(audit!.responseBody)).toEqual(OUTCOME);
  });

  it('sends a test Bundle tagged as test data', async () => {
    const res = await h.request('POST', `/api/rms-providers/${providerId}/test`, { token: superToken });
    expect((await json(res)).data.attributes).toMatchObject({ succeeded: true, status: 200 });
    const { bundle } = received[0]!;
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(bundle.entry!.every((e) => e.resource?.meta?.tag?.some((t) => t.code === 'HTEST'))).toBe(true);
  });
});

describe('the FHIR callback', () => {
  const post = (subject: unknown, headers: Record<string, string> = { Authorization: `Bearer ${SECRET}` }, provider = providerId) =>
    h.request('POST', `/api/rms-callback/fhir/${provider}`, {
      body: JSON.stringify(subject),
      headers: { 'Content-Type': 'application/fhir+json', ...headers },
    });
  const subjectOf = (referralKey: string, status: string) => ({
    resourceType: 'ResearchSubject',
    identifier: [{ system: 'urn:ietf:rfc:3986', value: `urn:uuid:${referralKey}` }],
    status,
    study: { identifier: { value: 'PROTO-7' } },
    individual: { reference: 'Patient/1' },
  });
  const counts = async () => (await json(await h.request('GET', `/api/referrals/counts/${f.engagementIds[0]}`, { token: superToken }))).data.attributes;

  it('marks the referral screened, then randomized, from ResearchSubject statuses', async () => {
    const { delivery } = await contactRun();
    const before = await counts();
    const screening = await post(subjectOf(delivery.referralKey, 'screening'));
    expect(screening.status).toBe(200);
    expect((await screening.json()).resourceType).toBe('OperationOutcome');
    expect(await counts()).toMatchObject({ screened: before.screened + 1, randomized: before.randomized });
    expect((await post(subjectOf(delivery.referralKey, 'on-study'))).status).toBe(200);
    expect(await counts()).toMatchObject({ screened: before.screened + 1, randomized: before.randomized + 1 });
  });

  it('applies a signed message once per webhook-id: a replay changes nothing, two copies at once move once', async () => {
    const { delivery, contact } = await contactRun();
    const signed = async (subject: unknown, id: string) => {
      const body = JSON.stringify(subject);
      const headers = await signStandardWebhook(SECRET, id, h.clock().getTime() / 1000, body);
      return h.request('POST', `/api/rms-callback/fhir/${providerId}`, { body, headers: { 'Content-Type': 'application/fhir+json', ...headers } });
    };
    expect((await signed(subjectOf(delivery.referralKey, 'screening'), 'msg_fhir_first')).status).toBe(200);
    expect((await signed(subjectOf(delivery.referralKey, 'ineligible'), 'msg_fhir_later')).status).toBe(200);
    const [referral] = await h.db.select().from(referrals).where(eq(referrals.contactId, contact.id));
    const eventsOf = async () => h.db.select().from(referralEvents).where(eq(referralEvents.referralId, referral!.id));
    const before = await eventsOf();
    // The earlier message again within the tolerance: answered as the referral stands (not a 409 step down).
    const replay = await signed(subjectOf(delivery.referralKey, 'screening'), 'msg_fhir_first');
    expect(replay.status).toBe(200);
    expect((await replay.json()).issue[0].diagnostics).toContain('screen-failed');
    expect(await eventsOf()).toHaveLength(before.length);
    // Without the id claimed, the same step down is refused.
    expect((await signed(subjectOf(delivery.referralKey, 'screening'), 'msg_fhir_new')).status).toBe(409);
    const other = await contactRun();
    const twice = subjectOf(other.delivery.referralKey, 'on-study');
    expect((await Promise.all([signed(twice, 'msg_fhir_twice'), signed(twice, 'msg_fhir_twice')])).map((r) => r.status)).toEqual([200, 200]);
    const [moved] = await h.db.select().from(referrals).where(eq(referrals.contactId, other.contact.id));
    const enrolled = (await h.db.select().from(referralEvents).where(eq(referralEvents.referralId, moved!.id))).filter((e) => e.toStatus === 'enrolled');
    expect(enrolled).toHaveLength(1);
  });

  it('refuses a wrong token, another provider, an unknown referral (401) and a bad body (422), changing nothing', async () => {
    const { delivery } = await contactRun();
    const before = await counts();
    const refused = await post(subjectOf(delivery.referralKey, 'screening'), { Authorization: 'Bearer nope' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('application/fhir+json');
    expect(await refused.json()).toEqual({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'security', diagnostics: expect.any(String) }],
    });
    expect((await post(subjectOf(delivery.referralKey, 'screening'), {})).status).toBe(401);
    expect((await post(subjectOf(delivery.referralKey, 'screening'), undefined, providerId + 1000)).status).toBe(401);
    expect((await post(subjectOf('00000000-0000-4000-8000-000000000000', 'screening'))).status).toBe(401);
    const badStatus = await post(subjectOf(delivery.referralKey, 'enrolled'));
    expect(badStatus.status).toBe(422);
    expect(await badStatus.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', expression: ['ResearchSubject.status'] }],
    });
    expect((await post({ resourceType: 'Patient' })).status).toBe(422);
    expect(await counts()).toEqual(before);
  });
});

describe('answers typed by question type', () => {
  it('sends numbers as decimals, options with their labels, dates as dates, and validates', () => {
    const survey = { id: 1, identity: 'intake', version: 3, title: 'Intake' };
    const facts = {
      ...testReferralFacts('7d2c5a4e-3c1b-4f7e-9a51-0c6b8f1d2e3a', T0),
      test: false,
      survey,
      questions: [
        { identity: 'visits', title: 'Visits last year', type: 'number', options: [] },
        { identity: 'weight', title: 'Weight (kg)', type: 'number', options: [] },
        {
          identity: 'smoker',
          title: 'Do you smoke?',
          type: 'yes_no',
          options: [
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ],
        },
        { identity: 'diagnosed', title: 'Diagnosed on', type: 'date', options: [] },
      ],
      answers: [
        { questionIdentity: 'visits', questionTitle: 'Visits last year', type: 'number', value: '2' },
        { questionIdentity: 'weight', questionTitle: 'Weight (kg)', type: 'number', value: 71.5 },
        { questionIdentity: 'smoker', questionTitle: 'Do you smoke?', type: 'yes_no', value: 'no' },
        { questionIdentity: 'diagnosed', questionTitle: 'Diagnosed on', type: 'date', value: '2029-02-01' },
      ],
    };
    const bundle = referralBundle(facts);
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const [questionnaire] = resources<Questionnaire>(bundle, 'Questionnaire');
    expect(questionnaire!.resource.item!.map((i) => i.type)).toEqual(['decimal', 'decimal', 'choice', 'date']);
    const [answers] = resources<QuestionnaireResponse>(bundle, 'QuestionnaireResponse');
    expect(answers!.resource.questionnaire).toBe(`${questionnaireUrl('intake')}|3`);
    expect(answers!.resource.item!.map((i) => i.answer)).toEqual([
      [{ valueDecimal: 2 }],
      [{ valueDecimal: 71.5 }],
      [{ valueCoding: { system: optionSystem('intake', 'smoker'), code: 'no', display: 'No' } }],
      [{ valueDate: '2029-02-01' }],
    ]);
  });

  it('sends a referral without a site or survey with no Location, no Questionnaire, still valid', () => {
    const bundle = referralBundle(testReferralFacts('7d2c5a4e-3c1b-4f7e-9a51-0c6b8f1d2e3b', T0));
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(bundle.entry!.map((e) => e.resource!.resourceType)).toEqual([
      'Organization',
      'ResearchStudy',
      'Patient',
      'ResearchSubject',
      'Consent',
      'QuestionnaireResponse',
    ]);
    expect(bundle.entry!.every((e) => e.request!.ifNoneExist)).toBe(true);
  });
});
