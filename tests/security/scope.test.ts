/**
 * Sponsor scope over the route table: every list and read route a `User` may call either
 * keeps to their sponsors or is declared unscoped with the reason. For each scoped route the
 * same call, aimed at sponsor B's records, must show B's records to an Admin (so the call
 * really reaches them) and nothing of B to a User of sponsor A: a 404 for a record, an empty
 * list for a list narrowed to B's parent. A scope filter dropped from any of these routes
 * fails here; a new read route fails until it is given its case.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channelSpends,
  engagementOptions,
  leads,
  messages,
  oFormMessages,
  referrals,
  surveyOptions,
  surveyPages,
  surveyQuestions,
  surveys,
} from '../../server/db/schema';
import { createHarness, json, type Harness } from '../server/harness';
import { answerPage, createParticipantFixture, startSubmission, type ParticipantFixture } from '../support/participantFixture';
import { routeCoverage, RULES } from './routeRules';

/** A sponsor's records: the participant fixture's and a participant's run, a legacy survey with an option linked to an engagement, a survey message and a file. */
interface Target extends ParticipantFixture {
  tag: string;
  legacySurveyId: number;
  fileId: string;
  referralId: number;
  leadId: number;
  messageId: number;
  spendId: number;
}

type Case = { member: (b: Target) => string } | { list: (b: Target) => string } | { unscoped: string };

const GLOBAL_LOOKUP = 'a lookup shared by every sponsor';

/** Every GET route a User may call (the matrix's `staff` class), and how its scope is checked. */
const SCOPE: Record<string, Case> = {
  'GET /api/users/me': { unscoped: 'the signed-in user themself' },
  'GET /api/about': { unscoped: 'the product itself: its version and build' },
  'GET /api/about/licences': { unscoped: 'the product itself: the licences of what it ships' },
  'GET /api/sponsors': { list: (b) => `/api/sponsors?searchQuery=${b.tag}` },
  'GET /api/sponsors/:id': { member: (b) => `/api/sponsors/${b.sponsorId}` },
  'GET /api/engagements': { list: (b) => `/api/engagements?searchQuery=${b.tag}` },
  'GET /api/engagements/:id': { member: (b) => `/api/engagements/${b.engagementIds[0]}` },
  'GET /api/engagements-o-files': { list: (b) => `/api/engagements-o-files?engagementId=${b.engagementIds[0]}` },
  'GET /api/engagements-o-files/:id': { member: (b) => `/api/engagements-o-files/${b.fileId}` },
  'GET /api/engagements-o-files/:id/download': { member: (b) => `/api/engagements-o-files/${b.fileId}/download` },
  'GET /api/engagements-site-locations': { list: (b) => `/api/engagements-site-locations?engagementId=${b.engagementIds[0]}` },
  'GET /api/engagements-site-locations/:id': { member: (b) => `/api/engagements-site-locations/${b.engagementSiteLocationId}` },
  'GET /api/referrals/counts/:id': { member: (b) => `/api/referrals/counts/${b.engagementIds[0]}` },
  'GET /api/referrals': { list: (b) => `/api/referrals?engagementId=${b.engagementIds[0]}` },
  'GET /api/referrals/:id': { member: (b) => `/api/referrals/${b.referralId}` },
  'GET /api/referrals/:id/timeline': { member: (b) => `/api/referrals/${b.referralId}/timeline` },
  'GET /api/site-performance': { list: (b) => `/api/site-performance?engagementId=${b.engagementIds[0]}` },
  'GET /api/referral-reasons': { unscoped: 'the reasons every site closes referrals with' },
  'GET /api/leads': { list: (b) => `/api/leads?engagementId=${b.engagementIds[0]}` },
  'GET /api/leads/:id': { member: (b) => `/api/leads/${b.leadId}` },
  'GET /api/messages': { list: (b) => `/api/messages?engagementId=${b.engagementIds[0]}` },
  'GET /api/messages/:id': { member: (b) => `/api/messages/${b.messageId}` },
  'GET /api/message-settings': { list: (b) => `/api/message-settings?engagementId=${b.engagementIds[0]}` },
  'GET /api/message-templates': { unscoped: "the product's message templates, shared by every sponsor" },
  'GET /api/message-templates/:id/preview': { unscoped: "a template rendered with demo values, nobody's data" },
  'GET /api/screeners': { list: (b) => `/api/screeners?searchQuery=${b.tag}` },
  'GET /api/screeners/:id': { member: (b) => `/api/screeners/${b.screenerId}` },
  'GET /api/screeners/languages-screeners': { list: (b) => `/api/screeners/languages-screeners?screenerId=${b.screenerId}` },
  'GET /api/contact-fields-screeners': { list: (b) => `/api/contact-fields-screeners?screenerId=${b.screenerId}` },
  'GET /api/screener-surveys': { list: (b) => `/api/screener-surveys?screenerId=${b.screenerId}` },
  'GET /api/screener-surveys/flow/:id': { member: (b) => `/api/screener-surveys/flow/${b.screenerId}` },
  'GET /api/media-channels': { list: (b) => `/api/media-channels?searchQuery=${b.tag}` },
  'GET /api/media-channels/:id': { member: (b) => `/api/media-channels/${b.mediaChannelId}` },
  'GET /api/media-channels/:id/served-surveys': { member: (b) => `/api/media-channels/${b.mediaChannelId}/served-surveys` },
  'GET /api/media-channels/:id/embed-problems': { member: (b) => `/api/media-channels/${b.mediaChannelId}/embed-problems` },
  'GET /api/channel-spends': { list: (b) => `/api/channel-spends?mediaChannelId=${b.mediaChannelId}` },
  'GET /api/channel-spends/:id': { member: (b) => `/api/channel-spends/${b.spendId}` },
  'GET /api/media-channel-surveys': { list: (b) => `/api/media-channel-surveys?mediaChannelId=${b.mediaChannelId}` },
  'GET /api/surveys': { list: (b) => `/api/surveys?searchQuery=${b.tag}` },
  'GET /api/surveys/:id': { member: (b) => `/api/surveys/${b.legacySurveyId}` },
  'GET /api/engagements-options': { list: (b) => `/api/engagements-options?engagementId=${b.engagementIds[0]}` },
  'GET /api/o-forms/o-forms': { list: (b) => `/api/o-forms/o-forms?searchQuery=${b.tag}` },
  'GET /api/o-forms/o-forms/:id': { member: (b) => `/api/o-forms/o-forms/${b.oFormId}` },
  'GET /api/o-forms/o-form-versions/:id': { member: (b) => `/api/o-forms/o-form-versions/${b.oFormId}` },
  'GET /api/o-forms/o-form-containers/:id': { member: (b) => `/api/o-forms/o-form-containers/${b.pages.p2.id}` },
  'GET /api/o-forms/o-form-fields/:id': { member: (b) => `/api/o-forms/o-form-fields/${b.fields.q_text.id}` },
  'GET /api/o-forms/o-form-messages': { list: (b) => `/api/o-forms/o-form-messages?o_form_version_id=${b.oFormId}` },
  'GET /api/o-forms/languages-o-forms': { list: (b) => `/api/o-forms/languages-o-forms?oFormId=${b.oFormId}` },
  'GET /api/o-forms/o-forms/:id/missing-translations': { member: (b) => `/api/o-forms/o-forms/${b.oFormId}/missing-translations` },
  'GET /api/o-forms/o-form-exports/:id': { member: (b) => `/api/o-forms/o-form-exports/${b.oFormId}` },
  'GET /api/export-survey-metrics/:id': { member: (b) => `/api/export-survey-metrics/${b.oFormId}` },
  'GET /api/survey-page-metrics/:id': { member: (b) => `/api/survey-page-metrics/${b.oFormId}` },
  'GET /api/recruitment-funnel': { list: (b) => `/api/recruitment-funnel?sponsorId=${b.sponsorId}&groupBy=mediaChannel` },
  'GET /api/site-locations': { unscoped: 'sites are shared: any sponsor may run a study at one' },
  'GET /api/site-locations/:id': { unscoped: 'sites are shared: any sponsor may run a study at one' },
  'GET /api/o-forms/o-form-default-messages': { unscoped: 'the defaults every survey starts from' },
  'GET /api/o-forms/o-form-field-types': { unscoped: GLOBAL_LOOKUP },
  'GET /api/o-forms/o-form-field-categories': { unscoped: GLOBAL_LOOKUP },
  'GET /api/countries': { unscoped: GLOBAL_LOOKUP },
  'GET /api/countries/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/campaign-types': { unscoped: GLOBAL_LOOKUP },
  'GET /api/campaign-types/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/roles': { unscoped: GLOBAL_LOOKUP },
  'GET /api/roles/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/question-categories': { unscoped: GLOBAL_LOOKUP },
  'GET /api/question-categories/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/target-groups': { unscoped: GLOBAL_LOOKUP },
  'GET /api/target-groups/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/therapeutic-areas': { unscoped: GLOBAL_LOOKUP },
  'GET /api/therapeutic-areas/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/indications': { unscoped: GLOBAL_LOOKUP },
  'GET /api/indications/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/tags': { unscoped: GLOBAL_LOOKUP },
  'GET /api/tags/:id': { unscoped: GLOBAL_LOOKUP },
  'GET /api/rms-providers': { unscoped: 'record systems are configured for the whole installation' },
  'GET /api/rms-providers/:id': { unscoped: 'record systems are configured for the whole installation' },
};

let h: Harness;
let dataDir: string;
let admin: string;
let userA: string;
let a: Target;
let b: Target;

/** The routes a User may read, from the server's own route table and the matrix's rules. */
function userReadRoutes(): string[] {
  const out = new Set<string>();
  for (const r of h.app.routes) {
    const route = `${r.method} ${r.path}`;
    if (r.method === 'GET' && RULES[route] === 'staff') out.add(route);
  }
  return [...out].sort();
}

/** Each sponsor-scoped case of a route a User may read: its URL for `t`'s records, and whether it reads one record (else a list). */
function scopedUrls(t: Target): { url: string; member: boolean }[] {
  return userReadRoutes().flatMap((route): { url: string; member: boolean }[] => {
    const scope = SCOPE[route];
    if (!scope || 'unscoped' in scope) return [];
    return 'member' in scope ? [{ url: scope.member(t), member: true }] : [{ url: scope.list(t), member: false }];
  });
}

async function target(): Promise<Target> {
  const f = await createParticipantFixture(h.db);
  // A participant's run, so the funnel has something of this sponsor's to count.
  const run = await startSubmission(h, f);
  expect((await answerPage(h, run.token, run.firstEntryId, { q_choice: 'yes' })).meta.success).toBe(true);
  const tag = f.oFormIdentity.replace(/^survey-/, '');
  const [survey] = await h.db
    .insert(surveys)
    .values({ title: `Legacy ${tag}`, globalId: `legacy-${tag}`, engagementId: f.engagementIds[0] })
    .returning();
  const [page] = await h.db.insert(surveyPages).values({ surveyId: survey!.id, title: 'New Page 1' }).returning();
  const [question] = await h.db
    .insert(surveyQuestions)
    .values({ pageId: page!.id, questionType: 'single', title: `Question ${tag}` })
    .returning();
  const [option] = await h.db.insert(surveyOptions).values({ questionId: question!.id, label: 'Yes', value: 'yes' }).returning();
  await h.db.insert(engagementOptions).values({ engagementId: f.engagementIds[0], optionId: option!.id });
  await h.db
    .insert(oFormMessages)
    .values({ oFormIdentity: f.oFormIdentity, oFormVersionId: f.oFormId, messageType: 'completed_contact_form', language: 'en', message: `Thanks ${tag}` });
  const form = new FormData();
  form.set('file', new Blob(['protocol synopsis'], { type: 'text/plain' }), `protocol-${tag}.txt`);
  const uploaded = await h.app.request(`/api/engagements-o-files/${f.engagementIds[0]}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const [referral] = await h.db
    .insert(referrals)
    .values({ engagementId: f.engagementIds[0], engagementSiteLocationId: f.engagementSiteLocationId })
    .returning({ id: referrals.id });
  const [lead] = await h.db
    .insert(leads)
    .values({
      kind: 'notQualified',
      submissionId: Number(run.submissionId),
      engagementIds: f.engagementIds,
      screenerId: f.screenerId,
      valuesCiphertext: h.phi.seal('{}'),
      consentedAt: h.clock(),
      consentText: 'Yes',
      consentTextSha256: 'x',
    })
    .returning();
  const [message] = await h.db
    .insert(messages)
    .values({
      kind: 'newReferral',
      engagementId: f.engagementIds[0],
      referralId: referral!.id,
      audience: 'staff',
      recipientLabel: `coordinator ${tag}`,
      toCiphertext: h.phi.seal(`c-${tag}@example.com`),
      subject: `New referral ${tag}`,
      messageId: `<scope-${tag}@recruit.example>`,
    })
    .returning({ id: messages.id });
  const [spend] = await h.db
    .insert(channelSpends)
    .values({ mediaChannelId: f.mediaChannelId, amountMinor: 10_000, currency: 'USD', periodStart: '2026-01-01', periodEnd: '2026-01-31' })
    .returning({ id: channelSpends.id });
  return {
    ...f,
    tag,
    legacySurveyId: survey!.id,
    fileId: (await json(uploaded)).data.id as string,
    referralId: referral!.id,
    leadId: lead!.id,
    messageId: message!.id,
    spendId: spend!.id,
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-test-'));
  h = await createHarness({ DATA_DIR: dataDir });
  admin = await h.token();
  a = await target();
  b = await target();
  await h.createUser({ username: 'scope-user-a', password: 'scope-user-a-pass', roles: ['User'], sponsorIds: [a.sponsorId] });
  userA = await h.token('scope-user-a', 'scope-user-a-pass');
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const dataOf = async (res: Response): Promise<unknown[] | null> => {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return null;
  const doc = (await res.json()) as { data?: unknown };
  return Array.isArray(doc.data) ? doc.data : null;
};

describe('sponsor scope on every list and read route', () => {
  it('has a case for every route a User may read, and none for a route that is gone', () => {
    const routes = userReadRoutes();
    expect(routes.length).toBeGreaterThan(40);
    // Read routes without a scope case, and scope cases of routes that are gone.
    expect(routeCoverage(routes, SCOPE)).toEqual({ withoutCase: [], gone: [] });
  });

  it("shows an Admin sponsor B's records through each scoped route, and a User of sponsor A nothing of them", async () => {
    const wrong: string[] = [];
    for (const { url, member } of scopedUrls(b)) {
      const asAdmin = await h.request('GET', url, { token: admin });
      const asUser = await h.request('GET', url, { token: userA });
      if (member) {
        if (asAdmin.status !== 200) wrong.push(`${url} as an Admin: ${asAdmin.status}, expected 200 (the case does not reach B's record)`);
        if (asUser.status !== 404) wrong.push(`${url} as A's User: ${asUser.status}, expected 404`);
        continue;
      }
      const adminRows = await dataOf(asAdmin);
      if (asAdmin.status !== 200 || !adminRows?.length)
        wrong.push(`${url} as an Admin: ${asAdmin.status} with ${adminRows?.length ?? 'no'} rows, expected B's rows`);
      const userRows = asUser.status === 200 ? await dataOf(asUser) : null;
      // A list narrowed to a parent the User cannot see is empty, or refused as for a parent that does not exist.
      if (!(asUser.status === 404 || (asUser.status === 200 && userRows?.length === 0))) {
        wrong.push(`${url} as A's User: ${asUser.status} with ${userRows?.length ?? 'no'} rows, expected none`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("lets the User of sponsor A read A's own records through the same cases (the refusals are the scope)", async () => {
    const wrong: string[] = [];
    for (const { url, member } of scopedUrls(a)) {
      const res = await h.request('GET', url, { token: userA });
      const rows = !member && res.status === 200 ? await dataOf(res) : null;
      if (res.status !== 200 || (!member && !rows?.length)) wrong.push(`${url}: ${res.status} with ${rows?.length ?? '-'} rows`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});

describe("a Site Coordinator's scope", () => {
  let coordinator: string;
  beforeAll(async () => {
    const id = await h.createUser({ username: 'scope-coordinator-a', password: 'scope-coordinator-pass', roles: ['Site Coordinator'] });
    const tied = await h.request('POST', '/api/site-coordinators', {
      token: admin,
      body: { data: { type: 'site-coordinators', attributes: { userId: id, siteLocationId: a.siteLocationId } } },
    });
    expect(tied.status).toBe(201);
    coordinator = await h.token('scope-coordinator-a', 'scope-coordinator-pass');
  });

  it('sees nothing of sponsor B through any route a User may read: 403, 404 or an empty list', async () => {
    const wrong: string[] = [];
    for (const { url, member } of scopedUrls(b)) {
      const res = await h.request('GET', url, { token: coordinator });
      const rows = res.status === 200 ? await dataOf(res) : null;
      if (!(res.status === 403 || res.status === 404 || (res.status === 200 && !member && rows?.length === 0))) wrong.push(`${url}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("works only their own site's referrals: another site's are 404 to read, move, log, reveal or list", async () => {
    const list = await json(await h.request('GET', '/api/referrals?limit=1000', { token: coordinator }));
    expect(list.data.map((r: { id: string }) => Number(r.id))).toEqual([a.referralId]);
    expect((await h.request('GET', `/api/referrals/${a.referralId}`, { token: coordinator })).status).toBe(200);
    const other = b.referralId;
    expect((await h.request('GET', `/api/referrals/${other}`, { token: coordinator })).status).toBe(404);
    expect((await h.request('GET', `/api/referrals/${other}/timeline`, { token: coordinator })).status).toBe(404);
    expect((await h.request('POST', `/api/referrals/${other}/reveal`, { token: coordinator })).status).toBe(404);
    expect(
      (
        await h.request('PATCH', `/api/referrals/${other}`, {
          token: coordinator,
          body: { data: { type: 'referrals', id: String(other), attributes: { status: 'contacted' } } },
        })
      ).status,
    ).toBe(404);
    const attempt = { data: { type: 'contact-attempts', attributes: { channel: 'phone', result: 'no-answer' } } };
    expect((await h.request('POST', `/api/referrals/${other}/contact-attempts`, { token: coordinator, body: attempt })).status).toBe(404);
    expect((await h.request('POST', `/api/referrals/${other}/reveal`, { token: userA })).status).toBe(404);
    // Sponsor-wide figures and the site list are closed to a coordinator, even for their own sponsor.
    for (const url of [
      `/api/referrals/counts/${a.engagementIds[0]}`,
      '/api/site-locations',
      `/api/recruitment-funnel?sponsorId=${a.sponsorId}&groupBy=mediaChannel`,
      '/api/sponsors',
    ]) {
      expect((await h.request('GET', url, { token: coordinator })).status, url).toBe(403);
    }
    expect((await h.request('POST', `/api/referrals/${a.referralId}/contact-attempts`, { token: coordinator, body: attempt })).status).toBe(201);
  });
});
