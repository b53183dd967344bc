/**
 * The partner page's address at rest, on the real server and database: only its origin and
 * path are stored (a prefilled e-mail in its query never is), the campaign parameters are kept
 * apart, length-limited, from the address or sent on their own (validated: a bad one is a 422
 * and nothing is written); the widget's transport sends no query at all; and the migration
 * strips the addresses stored before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { oFormSubmissions } from '../../../server/db/schema';
import { rowsOf } from '../../../server/db/rows';
import { createParticipantTransport } from '@core/participant/transport';
import { checkParticipantAnswer } from '@core/participant/responses';
import { UTM_MAX_LENGTH } from '@core/model/partnerPage';
import { json, type Harness } from '../harness';
import { startSubmission, type ParticipantFixture } from '../../support/participantFixture';
import { submissionRow, useParticipantServer } from '../participantServer';

let h: Harness;
let f: ParticipantFixture;

useParticipantServer((server) => ({ h, f } = server));

const submissionCount = async () => (await h.db.select({ n: count() }).from(oFormSubmissions))[0]!.n;

function start(attributes: Record<string, unknown>) {
  return h.request('POST', '/api/o-forms/o-form-submissions', {
    body: { data: { type: 'o-form-submissions', attributes: { oFormId: f.oFormId, mediaChannelId: f.mediaChannelId, language: 'en', ...attributes } } },
  });
}

describe('the page address of a run', () => {
  it('is stored as origin and path only; its campaign parameters are kept apart, decoded', async () => {
    const { submissionId } = await startSubmission(h, f, {
      mediaChannelUrl:
        'https://user:pw@partner.example/heart/article-7?email=prefill@example.com&utm_source=newsletter&utm_campaign=spring%20drive&utm_medium=email#section-2',
    });
    const row = await submissionRow(h, submissionId);
    expect(row.mediaChannelUrl).toBe('https://partner.example/heart/article-7');
    expect(row.utm).toEqual({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring drive' });
    const [raw] = rowsOf(await h.db.execute(sql`select o_form_submissions::text as t from o_form_submissions where id = ${Number(submissionId)}`));
    expect(String(raw!.t)).not.toContain('prefill');
    expect(String(raw!.t)).not.toContain('pw@');
  });

  it('cuts a campaign value read from the address to its limit, and keeps only the five parameters', async () => {
    const long = 'x'.repeat(UTM_MAX_LENGTH + 50);
    const { submissionId } = await startSubmission(h, f, { mediaChannelUrl: `https://partner.example/p?utm_term=${long}&utm_id=7&gclid=abc&utm_content=` });
    const row = await submissionRow(h, submissionId);
    expect(row.mediaChannelUrl).toBe('https://partner.example/p');
    expect(row.utm).toEqual({ utm_term: 'x'.repeat(UTM_MAX_LENGTH) });
  });

  it('takes campaign parameters sent on their own, each over the same one in the address', async () => {
    const { submissionId } = await startSubmission(h, f, {
      mediaChannelUrl: 'https://partner.example/p?utm_source=page&utm_medium=banner',
      utm: { utm_source: 'explicit', utm_content: ' hero ' },
    });
    expect((await submissionRow(h, submissionId)).utm).toEqual({ utm_source: 'explicit', utm_medium: 'banner', utm_content: 'hero' });
  });

  it('stores nothing about the page when none is named', async () => {
    const { submissionId } = await startSubmission(h, f);
    const row = await submissionRow(h, submissionId);
    expect(row.mediaChannelUrl).toBeNull();
    expect(row.utm).toEqual({});
  });

  it.each([
    ['an unknown campaign key', { utm: { utm_source: 'a', utm_id: '7' } }, '/data/attributes/utm/utm_id'],
    ['a campaign value over the limit', { utm: { utm_campaign: 'y'.repeat(UTM_MAX_LENGTH + 1) } }, '/data/attributes/utm/utm_campaign'],
    ['a campaign value that is not text', { utm: { utm_source: 7 } }, '/data/attributes/utm/utm_source'],
    ['an empty campaign value', { utm: { utm_source: '  ' } }, '/data/attributes/utm/utm_source'],
    ['a page address that is not http(s)', { mediaChannelUrl: 'javascript:alert(1)' }, '/data/attributes/mediaChannelUrl'],
    ['a page address that is no address', { mediaChannelUrl: 'partner.example/p?email=a@b.c' }, '/data/attributes/mediaChannelUrl'],
  ])('refuses %s with a 422 naming it, writing nothing', async (_what, attributes, pointer) => {
    const before = await submissionCount();
    const res = await start(attributes);
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toContain(pointer);
    expect(body.errors[0].detail).toEqual(expect.any(String));
    expect(await submissionCount()).toBe(before);
  });
});

describe("the widget's transport", () => {
  it('sends the page as origin and path with its campaign parameters: the query never leaves the browser', async () => {
    const sent: string[] = [];
    const t = createParticipantTransport({
      apiOrigin: 'http://product.test',
      mediaChannelId: String(f.mediaChannelId),
      screenerId: String(f.screenerId),
      pageUrl: 'https://partner.example/article?email=prefill@example.com&utm_source=social',
      check: checkParticipantAnswer,
      fetch: (async (url: string | URL | Request, init?: RequestInit) => {
        if (typeof init?.body === 'string') sent.push(init.body);
        return h.app.request(String(url).replace('http://product.test', ''), init);
      }) as typeof fetch,
    });
    const { submissionId } = await t.createSubmission({ id: String(f.oFormId) } as never, 'en');
    expect(sent.join('\n')).not.toContain('prefill');
    expect(JSON.parse(sent[0]!).data.attributes).toMatchObject({ mediaChannelUrl: 'https://partner.example/article', utm: { utm_source: 'social' } });
    const row = await submissionRow(h, submissionId);
    expect(row.mediaChannelUrl).toBe('https://partner.example/article');
    expect(row.utm).toEqual({ utm_source: 'social' });
  });
});

describe('the migration of addresses stored before', () => {
  it('keeps the campaign parameters that need no decoding and strips query, fragment and credentials', async () => {
    const { submissionId } = await startSubmission(h, f);
    const id = Number(submissionId);
    await h.db
      .update(oFormSubmissions)
      .set({
        mediaChannelUrl: 'https://ann:secret@partner.example/a/b?email=prefill@example.com&utm_source=mail_2024&utm_term=heart%20health&utm_medium=cpc#x',
        utm: {},
      })
      .where(eq(oFormSubmissions.id, id));
    const file = fs.readFileSync(path.join(__dirname, '../../../server/db/migrations/0013_page_url_at_rest.sql'), 'utf8');
    const updates = file
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter((s) => s.startsWith('UPDATE'));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await h.db.execute(sql.raw(statement));
    const row = await submissionRow(h, submissionId);
    expect(row.mediaChannelUrl).toBe('https://partner.example/a/b');
    expect(row.utm).toEqual({ utm_source: 'mail_2024', utm_medium: 'cpc' });
  });
});
