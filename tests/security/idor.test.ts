/**
 * Insecure direct object references (issue 9, (f)), on the real server and database:
 * - a participant's submission token against another submission's entries, answers,
 *   sanitization, qualification, trial sites, contact form, contact and page metrics: every
 *   call answers 404 exactly like an id that does not exist, and nothing is written;
 * - a staff User of sponsor A against sponsor B's surveys, pages, questions, messages, exports,
 *   screeners and media channels: 404 on every member route, B's rows absent from A's lists,
 *   a create naming B's parent refused as for a parent that does not exist, nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../server/harness';
import { createParticipantFixture, runQualified, startSubmission, TOKEN_HEADER, type ParticipantFixture } from '../support/participantFixture';
import { mediaChannelSurveys, oFormContainerEntries, oFormMessages } from '../../server/db/schema';
import { changedTables, dbState, stateQuery, userTables, BOOKKEEPING } from './dbState';

let h: Harness;
let state: () => ReturnType<typeof dbState>;

beforeAll(async () => {
  h = await createHarness();
  const query = stateQuery(await userTables(h.db, BOOKKEEPING));
  state = () => dbState(h.db, query);
});
afterAll(async () => {
  await h.close();
});

type Call = [method: string, path: string, body?: unknown];

async function statusesOf(calls: Call[], options: { token?: string; headers?: Record<string, string> }) {
  const out: string[] = [];
  for (const [method, path, body] of calls) {
    const res = await h.request(method, path, { ...options, body });
    out.push(`${method} ${path} → ${res.status}`);
  }
  return out;
}

describe('a submission token opens its own submission only', () => {
  let f: ParticipantFixture;
  let victim: { submissionId: string; entryIds: number[] };
  let attacker: { submissionId: string; token: string; firstEntryId: string };

  beforeAll(async () => {
    f = await createParticipantFixture(h.db);
    const run = await runQualified(h, f);
    const entries = await h.db
      .select({ id: oFormContainerEntries.id })
      .from(oFormContainerEntries)
      .where(and(eq(oFormContainerEntries.submissionId, Number(run.submissionId)), isNull(oFormContainerEntries.parentId)));
    victim = { submissionId: run.submissionId, entryIds: entries.map((e) => e.id) };
    expect(victim.entryIds.length).toBe(3);
    attacker = await startSubmission(h, f);
  });

  it('answers 404 for every route about another submission, as for one that does not exist, and writes nothing', async () => {
    const headers = { [TOKEN_HEADER]: attacker.token };
    const calls = (submissionId: string, entryId: string | number): Call[] => [
      ['GET', `/api/o-forms/o-form-container-entries/${entryId}?include=oFormFieldEntries`],
      [
        'PATCH',
        `/api/o-forms/o-form-submission-page/${entryId}`,
        { data: { type: 'o-form-submission-pages', id: String(entryId), attributes: { answers: { q_choice: 'no' } } } },
      ],
      [
        'POST',
        `/api/o-forms/o-form-submission-page/${entryId}`,
        { data: { type: 'o-form-submission-pages', id: String(entryId), attributes: { answers: { q_choice: 'no' } } } },
      ],
      [
        'POST',
        '/api/o-forms/o-form-container-entries',
        { data: { type: 'o-form-container-entries', attributes: { oFormContainerId: f.pages.p2.id, oFormSubmissionId: Number(submissionId) } } },
      ],
      ['PATCH', `/api/o-forms/o-form-submission-sanitization/${submissionId}`, { data: { attributes: { pageIds: [Number(entryId)] } } }],
      ['GET', `/api/o-forms/o-form-submission-qualification/${submissionId}`],
      ['POST', `/api/o-forms/o-form-submission-qualification/${submissionId}`, {}],
      ['GET', `/api/o-forms/o-form-submission-outcome/${submissionId}`],
      ['GET', `/api/o-forms/o-form-submission-sites/${submissionId}?zip=10001`],
      ['GET', `/api/o-forms/o-form-submission-contact-fields/${submissionId}`],
      [
        'POST',
        `/api/o-forms/o-form-submission-contact/${submissionId}`,
        {
          data: {
            attributes: {
              engagementSiteLocationId: String(f.engagementSiteLocationId),
              values: { first_name: 'Mallory', email: 'mallory@example.com', phone: '212-555-0199' },
              acceptTerms: true,
            },
          },
        },
      ],
      ['GET', `/api/o-forms/o-form-submission-lead-fields/${submissionId}?zip=99501`],
      [
        'POST',
        `/api/o-forms/o-form-submission-lead/${submissionId}`,
        { data: { attributes: { values: { first_name: 'Mallory', email: 'mallory@example.com', phone: '212-555-0199' }, acceptTerms: true, zip: '99501' } } },
      ],
      [
        'POST',
        '/api/o-forms/o-form-page-metrics',
        {
          data: {
            type: 'o-form-page-metrics',
            attributes: { oFormSubmissionId: Number(submissionId), identity: 'p1', metricType: 'page', start: new Date().toISOString() },
          },
        },
      ],
    ];
    const before = await state();
    const against = await statusesOf(calls(victim.submissionId, victim.entryIds[0]!), { headers });
    const nothing = await statusesOf(calls('999999', 999999), { headers });
    expect(against.filter((s) => !s.endsWith('→ 404'))).toEqual([]);
    expect(nothing.filter((s) => !s.endsWith('→ 404'))).toEqual([]);
    // The victim's later pages too (a run's entries are not only its first).
    for (const entryId of victim.entryIds.slice(1)) {
      expect((await h.request('GET', `/api/o-forms/o-form-container-entries/${entryId}`, { headers })).status).toBe(404);
    }
    expect(changedTables(before, await state())).toEqual([]);
  });

  it("refuses to sanitize another submission's entry named among its own, deleting nothing", async () => {
    const headers = { [TOKEN_HEADER]: attacker.token };
    const before = await state();
    const res = await h.request('PATCH', `/api/o-forms/o-form-submission-sanitization/${attacker.submissionId}`, {
      headers,
      body: { data: { attributes: { pageIds: [Number(attacker.firstEntryId), ...victim.entryIds] } } },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).meta.isSanitizeSuccess).toBe(false);
    expect(changedTables(before, await state())).toEqual([]);
  });

  it('does not open a submission with a staff sign-in instead of its token', async () => {
    const admin = await h.token();
    const res = await h.request('GET', `/api/o-forms/o-form-container-entries/${victim.entryIds[0]}`, { token: admin });
    expect(res.status).toBe(401);
    const withBoth = await h.request('GET', `/api/o-forms/o-form-submission-qualification/${victim.submissionId}`, {
      token: admin,
      headers: { [TOKEN_HEADER]: attacker.token },
    });
    expect(withBoth.status).toBe(404);
  });
});

describe("a User of sponsor A cannot reach sponsor B's records", () => {
  let a: ParticipantFixture;
  let b: ParticipantFixture;
  let userToken: string;
  let messageA: number;
  let messageB: number;
  let channelSurveyB: number;

  beforeAll(async () => {
    // B's survey is a draft, so a write that slipped past the scope would really change it.
    a = await createParticipantFixture(h.db, { approved: false });
    b = await createParticipantFixture(h.db, { approved: false });
    await h.createUser({ username: 'idor-user-a', password: 'idor-user-a-pass', roles: ['User'], sponsorIds: [a.sponsorId] });
    userToken = await h.token('idor-user-a', 'idor-user-a-pass');
    const messages = await h.db
      .insert(oFormMessages)
      .values([
        { oFormIdentity: a.oFormIdentity, oFormVersionId: a.oFormId, messageType: 'completed_contact_form', language: 'en', message: 'A' },
        { oFormIdentity: b.oFormIdentity, oFormVersionId: b.oFormId, messageType: 'completed_contact_form', language: 'en', message: 'B' },
      ])
      .returning();
    messageA = messages[0]!.id;
    messageB = messages[1]!.id;
    const [link] = await h.db.select().from(mediaChannelSurveys).where(eq(mediaChannelSurveys.mediaChannelId, b.mediaChannelId));
    channelSurveyB = link!.id;
  });

  const memberCalls = (f: ParticipantFixture, messageId: number, channelSurveyId: number): Call[] => [
    ['GET', `/api/o-forms/o-forms/${f.oFormId}`],
    ['PATCH', `/api/o-forms/o-forms/${f.oFormId}`, { data: { type: 'o-forms', id: String(f.oFormId), attributes: { title: 'Taken over' } } }],
    ['PATCH', `/api/o-forms/o-form-versions/${f.oFormId}`, { data: { type: 'o-form-versions', id: String(f.oFormId), attributes: { isApproved: true } } }],
    ['GET', `/api/o-forms/o-forms/${f.oFormId}/missing-translations`],
    ['GET', `/api/o-forms/languages-o-forms?oFormId=${f.oFormId}`],
    ['GET', `/api/o-forms/o-form-containers/${f.pages.p2.id}`],
    [
      'PATCH',
      `/api/o-forms/o-form-containers/${f.pages.p2.id}`,
      { data: { type: 'o-form-containers', id: String(f.pages.p2.id), attributes: { title: 'Taken over' } } },
    ],
    [
      'PATCH',
      `/api/o-forms/o-form-fields/${f.fields.q_text.id}`,
      { data: { type: 'o-form-fields', id: String(f.fields.q_text.id), attributes: { title: 'Taken over' } } },
    ],
    ['PATCH', `/api/o-forms/o-form-messages/${messageId}`, { data: { type: 'o-form-messages', id: String(messageId), attributes: { message: 'Taken over' } } }],
    ['POST', `/api/o-forms/export-to-pdf/${f.oFormId}/0`],
    ['POST', `/api/o-forms/export-to-pdf/${f.oFormId}/1`],
    ['GET', `/api/o-forms/o-form-exports/${f.oFormId}`],
    ['GET', `/api/export-survey-metrics/${f.oFormId}`],
    ['GET', `/api/screeners/${f.screenerId}`],
    ['GET', `/api/screener-surveys/flow/${f.screenerId}`],
    ['GET', `/api/media-channels/${f.mediaChannelId}`],
    [
      'PATCH',
      `/api/media-channels/${f.mediaChannelId}`,
      { data: { type: 'media-channels', id: String(f.mediaChannelId), attributes: { title: 'Taken over' } } },
    ],
    [
      'PATCH',
      `/api/media-channel-surveys/${channelSurveyId}`,
      { data: { type: 'media-channel-surveys', id: String(channelSurveyId), attributes: { isActive: false } } },
    ],
    // Deletions last: on the own sponsor's rows they really delete.
    ['DELETE', `/api/o-forms/o-form-fields/${f.fields.q_text.id}`],
    ['DELETE', `/api/o-forms/o-form-containers/${f.pages.p3.id}`],
    ['DELETE', `/api/o-forms/o-forms/${f.oFormId}`],
  ];

  it("answers 404 on every member route of B's records and writes nothing", async () => {
    const before = await state();
    const answers = await statusesOf(memberCalls(b, messageB, channelSurveyB), { token: userToken });
    expect(answers.filter((s) => !s.endsWith('→ 404'))).toEqual([]);
    expect(changedTables(before, await state())).toEqual([]);
  });

  const creates = (ids: { form: number; identity: string; page: number; channel: number; screener: number }): Call[] => [
    ['POST', '/api/o-forms/o-form-containers', { data: { type: 'o-form-containers', attributes: { oFormId: ids.form, title: 'Injected' } } }],
    [
      'POST',
      '/api/o-forms/o-form-fields',
      { data: { type: 'o-form-fields', attributes: { containerId: ids.page, oFormFieldTypeId: 'text', title: 'Injected' } } },
    ],
    [
      'POST',
      '/api/o-forms/o-form-messages',
      {
        data: { type: 'o-form-messages', attributes: { oFormVersionId: ids.form, messageType: 'no_trial_sites_consent', language: 'en', message: 'Injected' } },
      },
    ],
    ['POST', '/api/o-forms/o-form-copy', { data: { type: 'o-form-copies', attributes: { copy_identity: ids.identity } } }],
    [
      'POST',
      '/api/media-channel-surveys',
      { data: { type: 'media-channel-surveys', attributes: { mediaChannelId: ids.channel, oFormIdentity: ids.identity } } },
    ],
    [
      'POST',
      '/api/media-channels',
      { data: { type: 'media-channels', attributes: { title: 'Injected', domain: 'evil.example', channelType: 'Partner Website', screenerId: ids.screener } } },
    ],
  ];

  it("refuses a create under B's parent exactly as under a parent that does not exist", async () => {
    const before = await state();
    const intoB = await statusesOf(
      creates({ form: b.oFormId, identity: b.oFormIdentity, page: b.pages.p1.id, channel: b.mediaChannelId, screener: b.screenerId }),
      { token: userToken },
    );
    const intoNothing = await statusesOf(creates({ form: 999999, identity: 'no-such-survey', page: 999999, channel: 999999, screener: 999999 }), {
      token: userToken,
    });
    expect(intoB.map((s) => s.replace(/\/\d+/g, '/:id'))).toEqual(intoNothing.map((s) => s.replace(/\/\d+/g, '/:id')));
    expect(intoB.filter((s) => /→ 2\d\d$/.test(s))).toEqual([]);
    expect(changedTables(before, await state())).toEqual([]);
  });

  it("lists none of B's records", async () => {
    const ids = async (path: string) => ((await json(await h.request('GET', path, { token: userToken }))).data as { id: string }[]).map((d) => d.id);
    const formIds = await ids('/api/o-forms/o-forms?limit=100');
    expect(formIds).toContain(String(a.oFormId));
    expect(formIds).not.toContain(String(b.oFormId));
    expect(await ids(`/api/o-forms/o-form-messages?o_form_version_id=${b.oFormId}`)).toEqual([]);
    expect(await ids(`/api/o-forms/o-form-messages?o_form_version_id=${a.oFormId}`)).toEqual([String(messageA)]);
    const screenerIds = await ids('/api/screeners?limit=100');
    expect(screenerIds).toContain(String(a.screenerId));
    expect(screenerIds).not.toContain(String(b.screenerId));
    const channelIds = await ids('/api/media-channels?limit=100');
    expect(channelIds).toContain(String(a.mediaChannelId));
    expect(channelIds).not.toContain(String(b.mediaChannelId));
    expect(await ids(`/api/media-channel-surveys?mediaChannelId=${b.mediaChannelId}`)).toEqual([]);
  });

  it("reaches A's own records through the same routes (the 404s are the scope, not broken calls)", async () => {
    const own = await statusesOf(
      memberCalls(a, messageA, 0).filter(([m]) => m === 'GET'),
      { token: userToken },
    );
    expect(own.filter((s) => !s.endsWith('→ 200'))).toEqual([]);
    // The same creates under A's own parents reach their own rules: they go through, or meet a
    // conflict that only an existing record can cause (a draft is not copied again; the channel
    // serves the survey already).
    const created = await statusesOf(
      creates({ form: a.oFormId, identity: a.oFormIdentity, page: a.pages.p1.id, channel: a.mediaChannelId, screener: a.screenerId }),
      { token: userToken },
    );
    expect(created.map((s) => s.split(' → ')[1])).toEqual(['201', '201', '201', '409', '409', '201']);
  });
});
