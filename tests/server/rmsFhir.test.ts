/**
 * The `fhir` provider against a local FHIR-like server: the referral arrives as an R4
 * transaction Bundle that validates against HL7's R4 JSON schema (tests/fixtures/fhir), with
 * the mapping the README's table promises; a resend asks for the same conditional creates; an
 * OperationOutcome in a failure is kept readably in the audit; and a ResearchSubject status
 * posted back updates the referral counts.
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type { Bundle, Consent, Location, Patient, QuestionnaireResponse, ResearchSubject } from '@medplum/fhirtypes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createHarness, json, type Harness } from './harness';
import { createParticipantFixture, leaveContact, type ParticipantFixture, runQualified } from '../support/participantFixture';
import { contacts, engagements, referralEvents, referrals, rmsAudits, rmsDeliveries, rmsProviders, siteLocations } from '../../server/db/schema';
import { settleDeliveries } from '../../server/rms/worker';
import { SITE_EXTENSION, SITE_IDENTIFIER_SYSTEM } from '../../server/rms/fhir';
import { newWebhookSecret, signStandardWebhook } from '../support/standardWebhooks';

const T0 = new Date('2031-07-08T12:00:00.000Z');
const SECRET = newWebhookSecret();
const BEARER = 'fhir-server-token-91f2';
const VALUES = { first_name: 'Ifeoma', email: 'ifeoma.okafor@example.com', phone: '212-555-0199' };

let h: Harness;
let f: ParticipantFixture;
let superToken: string;
let providerId: number;
let fhir: http.Server;
let validate: ValidateFunction;
let mode: 'ok' | 'invalid' = 'ok';
let received: { headers: http.IncomingHttpHeaders; bundle: Bundle }[] = [];

const OUTCOME = {
  resourceType: 'OperationOutcome',
  issue: [
    { severity: 'error', code: 'required', details: { text: 'Patient.name is required' }, expression: ['Patient.name'] },
    { severity: 'warning', code: 'business-rule', diagnostics: 'Study PROTO-7 is closed to candidates' },
  ],
};

function schemaValidator(): ValidateFunction {
  const file = path.resolve(import.meta.dirname, '../fixtures/fhir/fhir.schema.json.gz');
  const { id, ...schema } = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as Record<string, unknown>;
  // Draft-06 names the schema `id`; ajv 8 reads only `$id`.
  schema.$id = id;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  return ajv.compile(schema);
}

async function contactRun() {
  const { submissionId, token } = await runQualified(h, f);
  const res = await leaveContact(h, f, { submissionId, token }, VALUES);
  expect(res.status, await res.clone().text()).toBe(201);
  await settleDeliveries();
  const [contact] = await h.db.select().from(contacts).where(eq(contacts.submissionId, Number(submissionId)));
  const [delivery] = await h.db.select().from(rmsDeliveries).where(eq(rmsDeliveries.contactId, contact!.id));
  return { contact: contact!, delivery: delivery! };
}

const resources = <T>(bundle: Bundle, type: string) => (bundle.entry ?? []).filter((e) => e.resource?.resourceType === type) as { resource: T; request: { ifNoneExist?: string; url: string; method: string }; fullUrl: string }[];

beforeAll(async () => {
  validate = schemaValidator();
  fhir = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, bundle: JSON.parse(body) as Bundle });
      if (mode === 'invalid') return void res.writeHead(422, { 'Content-Type': 'application/fhir+json' }).end(JSON.stringify(OUTCOME));
      res.writeHead(200, { 'Content-Type': 'application/fhir+json' }).end(JSON.stringify({ resourceType: 'Bundle', type: 'transaction-response', entry: [] }));
    });
  });
  await new Promise<void>((resolve) => fhir.listen(0, '127.0.0.1', resolve));
  h = await createHarness({ RMS_RETRY_SCHEDULE: '60' });
  h.clock.set(T0);
  superToken = await h.token();
  f = await createParticipantFixture(h.db);
  const [provider] = await h.db
    .insert(rmsProviders)
    .values({
      name: 'Sponsor FHIR server',
      kind: 'fhir',
      endpointUrl: `http://127.0.0.1:${(fhir.address() as AddressInfo).port}/fhir`,
      signingSecret: h.phi.seal(SECRET),
      bearerToken: h.phi.seal(BEARER),
      timeoutMs: 10_000,
    })
    .returning();
  providerId = provider!.id;
  await h.db.update(engagements).set({ rmsProviderId: providerId, protocolIdentifier: 'PROTO-7' }).where(eq(engagements.id, f.engagementIds[0]));
});

afterAll(async () => {
  await settleDeliveries();
  fhir?.closeAllConnections();
  await new Promise<void>((resolve) => fhir.close(() => resolve()));
  await h.close();
});

beforeEach(() => {
  mode = 'ok';
  received = [];
});

describe('the FHIR provider', () => {
  it('posts an R4 transaction Bundle that validates against the R4 schema, mapped as the README says', async () => {
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
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'transaction', identifier: { system: 'urn:ietf:rfc:3986', value: referral } });
    const [patient] = resources<Patient>(bundle, 'Patient');
    expect(patient!.request).toEqual({ method: 'POST', url: 'Patient', ifNoneExist: `email=${encodeURIComponent(VALUES.email)}` });
    expect(patient!.resource).toMatchObject({
      name: [{ given: ['Ifeoma'] }],
      telecom: [
        { system: 'email', value: VALUES.email },
        { system: 'phone', value: VALUES.phone },
      ],
      birthDate: '1980-06-15',
      address: [{ postalCode: '10001' }],
    });
    const [site] = resources<Location>(bundle, 'Location');
    expect(site!.resource).toMatchObject({ name: expect.any(String), address: { postalCode: '10001', city: 'New York' } });
    const [subject] = resources<ResearchSubject>(bundle, 'ResearchSubject');
    expect(subject!.request.ifNoneExist).toBe(`identifier=${encodeURIComponent(`urn:ietf:rfc:3986|${referral}`)}`);
    expect(subject!.resource).toMatchObject({
      status: 'candidate',
      identifier: [{ system: 'urn:ietf:rfc:3986', value: referral }],
      study: { identifier: { value: 'PROTO-7' } },
      individual: { reference: patient!.fullUrl },
      extension: [{ valueReference: { reference: site!.fullUrl } }],
    });
    const [consent] = resources<Consent>(bundle, 'Consent');
    expect(consent!.resource).toMatchObject({ status: 'active', dateTime: contact.consentedAt!.toISOString(), patient: { reference: patient!.fullUrl }, sourceAttachment: { language: 'en' } });
    const [answers] = resources<QuestionnaireResponse>(bundle, 'QuestionnaireResponse');
    expect(answers!.resource.item).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ linkId: 'q_choice', answer: [{ valueCoding: { code: 'yes' } }] }),
        expect.objectContaining({ linkId: 'q_dob', answer: [{ valueDate: '1980-06-15' }] }),
        expect.objectContaining({ linkId: 'q_conditions', answer: [{ valueCoding: { code: 'a' } }] }),
      ]),
    );
  });

  it('points every reference in the Bundle at an entry of the resource type it names', async () => {
    await contactRun();
    const { bundle } = received[0]!;
    const typeOf = new Map((bundle.entry ?? []).map((e) => [e.fullUrl!, e.resource!.resourceType]));
    const target = (reference: { reference?: string } | undefined) => typeOf.get(reference?.reference ?? '') ?? `nothing (${reference?.reference})`;
    const [subject] = resources<ResearchSubject>(bundle, 'ResearchSubject');
    const [consent] = resources<Consent>(bundle, 'Consent');
    const [answers] = resources<QuestionnaireResponse>(bundle, 'QuestionnaireResponse');
    expect({
      'ResearchSubject.individual': target(subject!.resource.individual),
      'ResearchSubject.consent': target(subject!.resource.consent),
      'ResearchSubject site': target(subject!.resource.extension?.find((e) => e.url === SITE_EXTENSION)?.valueReference),
      'Consent.patient': target(consent!.resource.patient),
      'QuestionnaireResponse.subject': target(answers!.resource.subject),
    }).toEqual({
      'ResearchSubject.individual': 'Patient',
      'ResearchSubject.consent': 'Consent',
      'ResearchSubject site': 'Location',
      'Consent.patient': 'Patient',
      'QuestionnaireResponse.subject': 'Patient',
    });
    // And no reference anywhere in it points outside the Bundle.
    const references: string[] = [];
    JSON.stringify(bundle, (key, value: unknown) => (key === 'reference' && typeof value === 'string' ? void references.push(value) : value));
    expect(references.length).toBeGreaterThanOrEqual(5);
    expect(references.filter((r) => !typeOf.has(r))).toEqual([]);
  });

  it('creates every entry conditionally, each by the key that finds its earlier copy', async () => {
    await h.db.update(siteLocations).set({ siteId: 'NYC-PENN-1' }).where(eq(siteLocations.id, f.siteLocationId));
    const { delivery } = await contactRun();
    const byReferral = `identifier=${encodeURIComponent(`urn:ietf:rfc:3986|urn:uuid:${delivery.referralKey}`)}`;
    const conditions = Object.fromEntries(received[0]!.bundle.entry!.map((e) => [e.request!.url, e.request!.ifNoneExist]));
    expect(conditions).toEqual({
      Patient: `email=${encodeURIComponent(VALUES.email)}`,
      Location: `identifier=${encodeURIComponent(`${SITE_IDENTIFIER_SYSTEM}|NYC-PENN-1`)}`,
      ResearchSubject: byReferral,
      Consent: byReferral,
      QuestionnaireResponse: byReferral,
    });
    expect(received[0]!.bundle.entry!.every((e) => e.request!.method === 'POST')).toBe(true);
  });

  it('asks for the same conditional creates on a resend, so nothing is made twice', async () => {
    const { contact } = await contactRun();
    const again = await h.request('POST', `/api/resend-rms-audit/${contact.id}?again=true`, { token: superToken });
    expect(again.status).toBe(201);
    expect(received).toHaveLength(2);
    const keys = received.map(({ bundle }) => bundle.entry!.map((e) => `${e.request!.url} ${e.request!.ifNoneExist}`));
    expect(keys[1]).toEqual(keys[0]);
  });

  it("keeps a failure's OperationOutcome readably in the audit", async () => {
    mode = 'invalid';
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
    h.request('POST', `/api/rms-callback/fhir/${provider}`, { body: JSON.stringify(subject), headers: { 'Content-Type': 'application/fhir+json', ...headers } });
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
    expect((await post(subjectOf(delivery.referralKey, 'screening'), { Authorization: 'Bearer nope' })).status).toBe(401);
    expect((await post(subjectOf(delivery.referralKey, 'screening'), {})).status).toBe(401);
    expect((await post(subjectOf(delivery.referralKey, 'screening'), undefined, providerId + 1000)).status).toBe(401);
    expect((await post(subjectOf('00000000-0000-4000-8000-000000000000', 'screening'))).status).toBe(401);
    expect((await post(subjectOf(delivery.referralKey, 'enrolled'))).status).toBe(422);
    expect((await post({ resourceType: 'Patient' })).status).toBe(422);
    expect(await counts()).toEqual(before);
  });
});
