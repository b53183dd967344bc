/**
 * Hidden fields: declared on the media channel (name and longest length each, validated), sent
 * by the widget at the submission's start; only the declared ones are stored with the run, each
 * within its length (undeclared or too long: dropped, the run starts); they travel with the
 * referral (webhook JSON and the FHIR ResearchSubject's extension) beside the campaign
 * parameters, and the RMS audits list shows them with the contact.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Ajv } from 'ajv';
import draft6 from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { HIDDEN_FIELD_DUPLICATE, HIDDEN_FIELD_LENGTH_INVALID, HIDDEN_FIELD_NAME_INVALID } from '@core/model/mediaChannel';
import { mediaChannels } from '../../../server/db/schema';
import { loadReferralFacts } from '../../../server/rms/payload';
import { ATTRIBUTION_EXTENSION, referralBundle } from '../../../server/rms/fhir';
import { settleDeliveries } from '../../../server/rms/worker';
import { createParticipantTransport } from '@core/participant/transport';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantFixture, runQualified, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../../support/participantFixture';
import { contactLeft, submissionRow } from '../participantServer';
import { createHarness, json, type Harness } from '../harness';

let h: Harness;
let admin: string;
let f: ParticipantFixture;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.token();
  f = await createParticipantFixture(h.db);
});
afterAll(async () => {
  await settleDeliveries();
  await h.close();
});

const patchChannel = (id: number, attributes: Record<string, unknown>) =>
  h.request('PATCH', `/api/media-channels/${id}`, { token: admin, body: { data: { type: 'media-channels', id: String(id), attributes } } });

describe('hidden fields on the media channel', () => {
  it('are declared with a name and a longest length each; a bad declaration is a 422 that writes nothing', async () => {
    const ok = await patchChannel(f.mediaChannelId, {
      hiddenFields: [
        { name: 'partner_ref', maxLength: 12 },
        { name: 'click-id', maxLength: 40 },
      ],
    });
    expect(ok.status).toBe(200);
    expect((await json(ok)).data.attributes.hiddenFields).toEqual([
      { name: 'partner_ref', maxLength: 12 },
      { name: 'click-id', maxLength: 40 },
    ]);
    const cases: [unknown, string][] = [
      [[{ name: 'Partner Ref', maxLength: 10 }], HIDDEN_FIELD_NAME_INVALID],
      [[{ name: 'a', maxLength: 0 }], HIDDEN_FIELD_LENGTH_INVALID],
      [[{ name: 'a', maxLength: 501 }], HIDDEN_FIELD_LENGTH_INVALID],
      [
        [
          { name: 'a', maxLength: 5 },
          { name: 'a', maxLength: 6 },
        ],
        HIDDEN_FIELD_DUPLICATE,
      ],
      [Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, maxLength: 5 })), 'At most 20 hidden fields.'],
    ];
    for (const [hiddenFields, detail] of cases) {
      const res = await patchChannel(f.mediaChannelId, { hiddenFields });
      expect(res.status, JSON.stringify(hiddenFields)).toBe(422);
      expect((await json(res)).errors.map((e: { detail: string }) => e.detail)).toContain(detail);
    }
    // A change of something else keeps them.
    expect((await json(await patchChannel(f.mediaChannelId, { title: 'Renamed' }))).data.attributes.hiddenFields).toHaveLength(2);
    const [row] = await h.db.select().from(mediaChannels).where(eq(mediaChannels.id, f.mediaChannelId));
    expect(row!.hiddenFields).toEqual([
      { name: 'partner_ref', maxLength: 12 },
      { name: 'click-id', maxLength: 40 },
    ]);
  });

  it('keeps only the declared fields a run sends, trimmed and within their length', async () => {
    const { submissionId } = await startSubmission(h, f, {
      fields: { partner_ref: '  abc-123  ', 'click-id': 'x'.repeat(5000), undeclared: 'dropped', __proto__: 'no' } as Record<string, string>,
    });
    expect((await submissionRow(h, submissionId)).hiddenFields).toEqual({ partner_ref: 'abc-123' });
    const none = await startSubmission(h, f);
    expect((await submissionRow(h, none.submissionId)).hiddenFields).toEqual({});
    // A run without a channel declares nothing: nothing is kept.
    const noChannel = await startSubmission(h, f, { mediaChannelId: null, fields: { partner_ref: 'p' } });
    expect((await submissionRow(h, noChannel.submissionId)).hiddenFields).toEqual({});
  });

  it("are what the widget's transport sends when the run starts", async () => {
    const t = createParticipantTransport({
      apiOrigin: 'http://product.test',
      mediaChannelId: String(f.mediaChannelId),
      pageUrl: 'https://partner.example/p',
      fields: { partner_ref: 'from-snippet', other: 'x' },
      check: checkParticipantAnswer,
      fetch: ((url: string | URL | Request, init?: RequestInit) => h.app.request(String(url).replace('http://product.test', ''), init)) as typeof fetch,
    });
    const { submissionId } = await t.createSubmission({ id: String(f.oFormId) } as never, 'en');
    expect((await submissionRow(h, submissionId)).hiddenFields).toEqual({ partner_ref: 'from-snippet' });
  });

  it('refuses what no page sends (not an object of texts): 422, no run', async () => {
    for (const fields of [{ partner_ref: 7 }, ['a'], 'partner_ref=1']) {
      const res = await h.request('POST', '/api/o-forms/o-form-submissions', {
        body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId, fields } } },
      });
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.headers.get(TOKEN_HEADER)).toBeNull();
    }
  });

  it('travel with the referral (webhook JSON and FHIR) and show with the contact on the RMS audits list', async () => {
    const run = await runQualified(h, f, {
      mediaChannelUrl: 'https://partner.example/p?utm_source=newsletter&utm_campaign=spring',
      fields: { partner_ref: 'ref-9', 'click-id': 'c1' },
    });
    await h.request('GET', `/api/o-forms/o-form-submission-qualification/${run.submissionId}`, { headers: { [TOKEN_HEADER]: run.token } });
    const contact = await contactLeft(h, f, run, { first_name: 'Ada', email: 'ada.hidden@example.com', phone: '212-555-0100' });
    const facts = await loadReferralFacts(h.db, h.phi, contact.id, 'referral-key');
    expect(facts!.attribution).toMatchObject({
      utm: { utm_source: 'newsletter', utm_campaign: 'spring' },
      hiddenFields: { partner_ref: 'ref-9', 'click-id': 'c1' },
    });
    const bundle = referralBundle(facts!);
    // Still valid R4 (HL7's JSON schema, as the FHIR tests check it).
    const { id, ...schema } = JSON.parse(
      zlib.gunzipSync(fs.readFileSync(path.resolve(import.meta.dirname, '../../fixtures/fhir/fhir.schema.json.gz'))).toString('utf8'),
    );
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(draft6);
    const validate = ajv.compile({ ...schema, $id: id });
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const subject = bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === 'ResearchSubject') as {
      extension?: { url: string; extension?: unknown[] }[];
    };
    const attribution = subject.extension!.find((x) => x.url === ATTRIBUTION_EXTENSION)!;
    expect(attribution.extension).toEqual([
      { url: 'utm_source', valueString: 'newsletter' },
      { url: 'utm_campaign', valueString: 'spring' },
      {
        url: 'hidden-field',
        extension: [
          { url: 'name', valueString: 'click-id' },
          { url: 'value', valueString: 'c1' },
        ],
      },
      {
        url: 'hidden-field',
        extension: [
          { url: 'name', valueString: 'partner_ref' },
          { url: 'value', valueString: 'ref-9' },
        ],
      },
    ]);
    const audits = await json(await h.request('GET', `/api/rms-audits?contactId=${contact.id}`, { token: admin }));
    expect(audits.data[0].attributes).toMatchObject({
      utm: { utm_source: 'newsletter', utm_campaign: 'spring' },
      hiddenFields: { partner_ref: 'ref-9', 'click-id': 'c1' },
    });
  });
});
