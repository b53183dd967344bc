/**
 * The admin preview's lead forms on the real server and database: the form of each outcome
 * (the screener's contact fields and that outcome's own message pair, in the language previewed),
 * the form as sent checked as a lead is and thanked, and nothing written (no lead, no
 * submission); bad input a JSON:API error; a User only within their sponsors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../harness';
import type { ParticipantFixture } from '../../support/participantFixture';
import { addNoTrialSitesMessage, twoSponsors } from '../participantServer';
import { leads, oFormSubmissions } from '../../../server/db/schema';

let h: Harness;
let a: ParticipantFixture;
let b: ParticipantFixture;
let admin: string;
let userA: string;

const VALUES = { first_name: 'Pia', email: 'pia.preview@example.org', phone: '917-555-0199' };

beforeAll(async () => {
  h = await createHarness();
  ({ a, b, admin, userA } = await twoSponsors(h, 'preview-user-a'));
  await addNoTrialSitesMessage(h, a.screenerId);
});
afterAll(async () => {
  await h.close();
});

const body = (attributes: Record<string, unknown>, type = 'lead-previews') => ({ data: { type, attributes } });
const form = (attributes: Record<string, unknown>, token = admin) => h.request('POST', '/api/leads/preview-form', { token, body: body(attributes) });
const send = (attributes: Record<string, unknown>, token = admin) => h.request('POST', '/api/leads/preview', { token, body: body(attributes) });

/** What a preview must never write. */
async function stored() {
  const [l] = await h.db.select({ n: count() }).from(leads);
  const [s] = await h.db.select({ n: count() }).from(oFormSubmissions);
  return { leads: l!.n, submissions: s!.n };
}

const pointers = async (res: Response) => ((await json(res)).errors as { source?: { pointer?: string } }[]).map((e) => e.source?.pointer).sort();

describe('the preview of a lead form', () => {
  it("answers each outcome's own message pair around the screener's contact fields, in the language previewed", async () => {
    const es = await form({ kind: 'noTrialSites', screenerId: a.screenerId, oFormId: a.oFormId, language: 'es' });
    expect(es.status, await es.clone().text()).toBe(200);
    const doc = await json(es);
    expect(doc.meta).toEqual({
      outcome: 'noTrialSites',
      messages: { contactForm: '<p>Aún no hay centro cerca.</p>', consent: 'Contácteme cuando abra un centro cerca.' },
    });
    expect(doc.data.map((d: { attributes: { name: string } }) => d.attributes.name)).toEqual(a.contactFieldNames);

    // Another outcome, its own pair (the fixture's notQualified messages), not noTrialSites'.
    const other = await json(await form({ kind: 'notQualified', screenerId: a.screenerId, oFormId: a.oFormId, language: 'en' }));
    expect(other.meta.outcome).toBe('notQualified');
    expect(other.meta.messages.consent).toBe('May we contact you about other studies?');
  });

  it('checks the form as sent as a lead is, answers the thanks, and writes nothing', async () => {
    const before = await stored();
    const sentBadly = await send({
      kind: 'noTrialSites',
      screenerId: a.screenerId,
      oFormId: a.oFormId,
      language: 'en',
      values: { ...VALUES, email: 'not-an-email' },
      acceptTerms: false,
    });
    expect(sentBadly.status).toBe(422);
    expect(await pointers(sentBadly)).toEqual(['/data/attributes/acceptTerms', '/data/attributes/values/email']);
    const badZip = await send({ kind: 'notQualified', screenerId: a.screenerId, language: 'en', values: VALUES, acceptTerms: true, zip: '00000' });
    expect(badZip.status).toBe(422);
    expect(await pointers(badZip)).toEqual(['/data/attributes/zip']);

    const sent = await send({ kind: 'noTrialSites', screenerId: a.screenerId, oFormId: a.oFormId, language: 'es', values: VALUES, acceptTerms: true });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect((await json(sent)).meta).toEqual({
      outcome: 'noTrialSites',
      leadKept: false,
      messages: { contactForm: '<p>Gracias. Guardamos sus datos y es posible que le contactemos.</p>', consent: '' },
    });
    expect(await stored()).toEqual(before);
  });

  it('refuses bad input with a JSON:API error, writing nothing', async () => {
    const before = await stored();
    const good = { kind: 'notActive', screenerId: a.screenerId, language: 'en' };
    const cases: [Response, number, string | undefined][] = [
      [await form({ ...good, kind: 'qualified' }), 422, '/data/attributes/kind'],
      [await form({ ...good, screenerId: 'one' }), 422, '/data/attributes/screenerId'],
      [await form({ ...good, language: 'Spanish!' }), 422, '/data/attributes/language'],
      [await form({ ...good, surprise: true }), 422, '/data/attributes/surprise'],
      [await h.request('POST', '/api/leads/preview-form', { token: admin, body: body(good, 'leads') }), 409, '/data/type'],
      [await form({ ...good, screenerId: 999_999 }), 404, undefined],
      [await send({ ...good, oFormId: 999_999, values: VALUES, acceptTerms: true }), 404, undefined],
    ];
    for (const [res, status, pointer] of cases) {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/json/);
      if (pointer) expect(await pointers(res)).toContain(pointer);
    }
    expect(await stored()).toEqual(before);
  });

  it("keeps a User to their sponsors' screeners and surveys, and needs a sign-in", async () => {
    expect((await form({ kind: 'notQualified', screenerId: a.screenerId, oFormId: a.oFormId, language: 'en' }, userA)).status).toBe(200);
    expect((await form({ kind: 'notQualified', screenerId: b.screenerId, language: 'en' }, userA)).status).toBe(404);
    expect((await form({ kind: 'notQualified', screenerId: a.screenerId, oFormId: b.oFormId, language: 'en' }, userA)).status).toBe(404);
    expect((await send({ kind: 'notQualified', screenerId: b.screenerId, language: 'en', values: VALUES, acceptTerms: true }, userA)).status).toBe(404);
    const anonymous = await h.request('POST', '/api/leads/preview-form', { body: body({ kind: 'notQualified', screenerId: a.screenerId, language: 'en' }) });
    expect(anonymous.status).toBe(401);
  });
});
