/**
 * The participant transport (core/participant/transport.ts) driving the core runner against the
 * real server, every call sent as from the partner's page (an Origin of the channel's domain), so
 * the channel query that CORS needs is checked on each call, and every answer checked against the
 * participant contract (core/participant/responses.ts) on arrival.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Harness } from '../harness';
import { createParticipantFixture, type ParticipantFixture } from '../../support/participantFixture';
import { useParticipantServer } from '../participantServer';
import { createApiClient } from '@core/api/client';
import { surveysApi } from '@core/api/surveys';
import { previewSurvey, previewTransport } from '@core/api/surveyPreview';
import { checkParticipantAnswer } from '@core/participant/responses';
import { createParticipantTransport, type ParticipantTransportOptions } from '@core/participant/transport';
import { createRunner, type RunnerState } from '@core/survey/runner';
import { contactFieldScreeners, leads, oFormPageMetrics, oFormSubmissions } from '../../../server/db/schema';
import { storedAnswersOf } from '../storedAnswers';
import { later } from '../../support/runnerLater';
import { rowsWhere } from '../rowsWhere';

let h: Harness;
let f: ParticipantFixture;
const seen: { url: string; origin: string | null; token: string | null; simple: boolean }[] = [];

useParticipantServer((server) => ({ h, f } = server));

/** A runner previewing `survey` as the admin's preview composes it: no channel, and the staff member's `token` where given. */
const previewRunner = (survey: Parameters<typeof previewTransport>[1], identity: string, token?: string) =>
  createRunner({ later, transport: previewTransport(api({ mediaChannelId: null }, 'http://localhost', token), survey), identity, preview: true });

function api(options: Partial<ParticipantTransportOptions> = {}, origin = `https://${f.domain}`, staffToken?: string) {
  const fetchFromPartner: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    request.headers.set('Origin', origin);
    if (staffToken) request.headers.set('Authorization', `Bearer ${staffToken}`);
    // Every call about a submission carries the token in its body (a CORS simple request): none in a header.
    const bodyToken =
      typeof init?.body === 'string' ? ((JSON.parse(init.body) as { meta?: { submissionToken?: string } }).meta?.submissionToken ?? null) : null;
    const headerToken = request.headers.get('Survey-Submission-Token');
    seen.push({
      url: request.url,
      origin,
      token: headerToken ?? bodyToken,
      simple:
        headerToken === null && (init?.body === undefined || (request.method === 'POST' && request.headers.get('Content-Type')!.startsWith('text/plain'))),
    });
    return h.app.request(request);
  };
  return createParticipantTransport({
    apiOrigin: 'http://localhost',
    mediaChannelId: String(f.mediaChannelId),
    fetch: fetchFromPartner,
    check: checkParticipantAnswer,
    ...options,
  });
}

const settle = async (runner: { getState(): RunnerState }, phases: RunnerState['phase'][]) => {
  for (let i = 0; i < 200 && !phases.includes(runner.getState().phase); i++) await new Promise((r) => setTimeout(r, 5));
  return runner.getState();
};

describe('the participant transport', () => {
  it('runs a survey with a jump to the end, qualified, every call naming the channel', async () => {
    seen.length = 0;
    const transport = api();
    const runner = createRunner({ later, transport, identity: '' });
    await runner.start();
    let state = runner.getState();
    expect(state.phase).toBe('page');
    expect(state.page?.identity).toBe('p1');
    expect(state.survey).toMatchObject({ identity: f.oFormIdentity, containerCount: 3, languages: ['en', 'es'] });
    runner.answer('q_choice', 'skip');
    const beforeFirstNext = seen.length;
    await runner.next();
    state = runner.getState();
    expect(state.page?.identity).toBe('p3');
    // The first Next is one call: the submission made with its first page's answers saved.
    expect(seen.slice(beforeFirstNext).map((s) => new URL(s.url).pathname)).toEqual(['/api/o-forms/o-form-submissions']);
    runner.answer('q_zip', '10001');
    await runner.next();
    // Qualified, the run goes on to the trial sites near the ZIP answered on p3.
    state = await settle(runner, ['sites', 'zip', 'finished', 'failed']);
    expect(state.phase).toBe('sites');
    expect(state.qualification).toMatchObject({ isQualified: true, outcome: 'qualified', engagementIds: f.engagementIds.map(String) });
    expect(state.messages.contactForm).toBe('You may qualify!');
    expect(seen.every((s) => new URL(s.url).searchParams.get('mediaChannelId') === String(f.mediaChannelId))).toBe(true);
    // The token went out on every call after the submission's creation.
    const after = seen.slice(seen.findIndex((s) => s.url.includes('o-form-submissions')) + 1);
    expect(after.length).toBeGreaterThan(2);
    expect(after.every((s) => s.token === transport.credentials())).toBe(true);
    // The sites: the ZIP goes in the body, never in an address.
    expect(seen.some((s) => s.url.includes('/o-form-submission-sites/'))).toBe(true);
    expect(seen.filter((s) => s.url.includes('10001'))).toEqual([]);
    // Every call is a GET with no token or a POST of text/plain with no token header: no preflight on a partner's page.
    expect(seen.filter((s) => !s.simple)).toEqual([]);
  });

  it('moves to the next page in one call: the save answers the next page itself', async () => {
    const transport = api();
    const runner = createRunner({ later, transport, identity: '' });
    await runner.start();
    runner.answer('q_choice', 'yes');
    await runner.next();
    expect(runner.getState().page?.identity).toBe('p2');
    seen.length = 0;
    runner.answer('q_dob', '1980-02-02');
    await runner.next();
    expect(runner.getState()).toMatchObject({ phase: 'page', page: { identity: 'p3', fields: [{ identity: 'q_zip' }, { identity: 'q_conditions' }] } });
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual([`/api/o-forms/o-form-submission-page/${runner.getState().history[1]!.entryId}`]);
    // The page shown is the one the server made the entry for: its answers are saved there.
    seen.length = 0;
    runner.answer('q_zip', '10001');
    await runner.next();
    expect(seen[0]!.url).toContain(`/o-form-submission-page/${runner.getState().history[2]?.entryId ?? ''}`);

    // In preview too: one call a Next.
    const preview = createRunner({ later, transport: api({ mediaChannelId: null }, 'http://localhost'), identity: f.oFormIdentity, preview: true });
    await preview.start();
    seen.length = 0;
    preview.answer('q_choice', 'yes');
    await preview.next();
    expect(preview.getState().page?.identity).toBe('p2');
    expect(seen.map((s) => new URL(s.url).pathname)).toEqual([`/api/o-forms/o-form-submission-page-preview/${f.pages.p1.id}`]);
  });

  it("shows the server's field problems, and revisiting an earlier page sanitizes the later ones", async () => {
    const transport = api();
    const runner = createRunner({ later, transport, identity: f.oFormIdentity });
    await runner.start();
    runner.answer('q_choice', 'yes');
    await runner.next();
    expect(runner.getState().page?.identity).toBe('p2');
    runner.answer('q_dob', '1980-02-02');
    await runner.next();
    expect(runner.getState().page?.identity).toBe('p3');
    const submissionId = Number(transport.submissionId());
    const answers = () => storedAnswersOf(h.db, submissionId);
    expect(await answers()).toHaveLength(2);
    await runner.goTo(0);
    expect(runner.getState().page?.identity).toBe('p1');
    expect(await answers()).toHaveLength(1);

    // An answer the server refuses (not an option) comes back as the field's message.
    const saved = await transport.saveAnswers(runner.getState().history[0]!.entryId!, { q_choice: 'maybe' });
    expect(saved).toEqual({ ok: false, errors: { q_choice: 'Choose one of the options.' } });
  });

  it('resumes with the token and reads an entry back; sends page timing', async () => {
    const first = api();
    const runner = createRunner({ later, transport: first, identity: '' });
    await runner.start();
    runner.answer('q_choice', 'yes');
    await runner.next();
    const entryId = runner.getState().history[0]!.entryId!;
    const second = api();
    second.resume(first.submissionId()!, first.credentials()!);
    expect(await second.entryAnswers(entryId)).toEqual({ q_choice: 'yes' });
    await second.metric(first.submissionId()!, 'p1', new Date(Date.now() - 5000).toISOString(), new Date().toISOString());
    expect(await rowsWhere(h.db, oFormPageMetrics.submissionId, Number(first.submissionId()))).toHaveLength(1);
  });

  it("shows a finished run's outcome again on a resume while the channel's retake window holds, then gives way to a fresh run", async () => {
    const T0 = new Date('2031-05-04T09:00:00.000Z');
    const DAY = 24 * 3600 * 1000;
    h.clock.set(T0);
    try {
      const runner = createRunner({ later, transport: api(), identity: '' });
      await runner.start();
      runner.answer('q_choice', 'no');
      await runner.next();
      runner.answer('q_dob', '1980-06-15');
      await runner.next();
      runner.answer('q_zip', '10001');
      await runner.next();
      // The outcome's lead form first; "No thanks" (Back) finishes the run without a lead.
      expect(runner.getState()).toMatchObject({ phase: 'contact', lead: 'notQualified' });
      await runner.back();
      expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'notQualified' });
      const snap = runner.snapshot()!;
      expect(snap).toMatchObject({ step: 'finished', history: [] });
      expect(snap).not.toHaveProperty('outcome');

      const resumeAt = async (now: Date) => {
        h.clock.set(now);
        const abandoned: unknown[] = [];
        const again = createRunner({ later, transport: api(), identity: '', resume: snap, abandonResume: (error) => abandoned.push(error) > 0 });
        await again.start();
        return { state: again.getState(), abandoned };
      };
      const within = await resumeAt(new Date(T0.getTime() + 30 * DAY - 1));
      expect(within.state).toMatchObject({ phase: 'finished', outcome: 'notQualified' });
      expect(within.state.messages.contactForm).toContain('Not a match');
      expect(within.abandoned).toEqual([]);
      const past = await resumeAt(new Date(T0.getTime() + 30 * DAY));
      expect(past.abandoned).toHaveLength(1);
      expect(past.state.phase).toBe('page');
      expect(past.state.page?.identity).toBe('p1');
    } finally {
      h.clock.release();
    }
  });

  it('offers the notActive lead form when the channel is switched off before the run began, as midway; the lead is kept, the run never started', async () => {
    const off = await createParticipantFixture(h.db, { channelActive: false });
    const transport = () => api({ mediaChannelId: String(off.mediaChannelId) }, `https://${off.domain}`);
    const runner = createRunner({ later, transport: transport(), identity: '' });
    await runner.start();
    const state = runner.getState();
    expect(state).toMatchObject({ phase: 'contact', lead: 'notActive', outcome: 'notActive' });
    expect(state.messages.contactForm).toContain('not enrolling');
    expect(state.contactFields.map((c) => c.name)).toEqual(off.contactFieldNames);
    // Not the runner's own run: nothing to resume, nothing announced as started.
    expect(runner.submissionId()).toBeNull();
    expect(runner.snapshot()).toBeNull();
    for (const [name, value] of Object.entries({ first_name: 'Ines', email: 'ines.off@example.org', phone: '917-555-0177' })) runner.setContact(name, value);
    runner.accept(true);
    runner.submitContact();
    const kept = await settle(runner, ['finished', 'failed']);
    expect(kept).toMatchObject({ phase: 'finished', outcome: 'notActive' });
    const made = await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, off.oFormId));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ outcome: 'notActive', startedAt: null });
    expect(await h.db.select().from(leads).where(eq(leads.submissionId, made[0]!.id))).toMatchObject([{ kind: 'notActive', engagementIds: off.engagementIds }]);

    // "No thanks" (Back on the lead's form): the outcome, nothing kept.
    const declining = createRunner({ later, transport: transport(), identity: '' });
    await declining.start();
    expect(declining.getState()).toMatchObject({ phase: 'contact', lead: 'notActive' });
    await declining.back();
    expect(declining.getState()).toMatchObject({ phase: 'finished', outcome: 'notActive' });
    expect(await h.db.select().from(leads).where(eq(leads.mediaChannelId, off.mediaChannelId))).toHaveLength(1);
  });

  it('ends in notActive with the messages alone where the screener asks no contact fields', async () => {
    const off = await createParticipantFixture(h.db, { channelActive: false });
    await h.db.delete(contactFieldScreeners).where(eq(contactFieldScreeners.screenerId, off.screenerId));
    const runner = createRunner({ later, transport: api({ mediaChannelId: String(off.mediaChannelId) }, `https://${off.domain}`), identity: '' });
    await runner.start();
    const state = runner.getState();
    expect(state).toMatchObject({ phase: 'finished', outcome: 'notActive' });
    expect(state.messages.contactForm).toContain('not enrolling');
    expect(await h.db.select().from(oFormSubmissions).where(eq(oFormSubmissions.oFormId, off.oFormId))).toHaveLength(0);
  });

  it('fails (and can retry) when the page is on another site', async () => {
    const runner = createRunner({ later, transport: api({}, 'https://evil.example'), identity: '' });
    await runner.start();
    expect(runner.getState().phase).toBe('failed');
  });

  it('previews without a submission: nothing is written, qualified unless told otherwise', async () => {
    const before = (await h.db.select().from(oFormSubmissions)).length;
    // Composed as the admin's preview is: the survey known, the outcome the preview's own.
    const survey = { id: String(f.oFormId), identity: f.oFormIdentity, title: 'Fixture', containerCount: 3 };
    const runner = previewRunner(survey, f.oFormIdentity);
    await runner.start();
    runner.answer('q_choice', 'stop');
    await runner.next();
    const state = await settle(runner, ['finished', 'failed']);
    expect(state).toMatchObject({ phase: 'finished', outcome: 'qualified' });
    expect(await h.db.select().from(oFormSubmissions)).toHaveLength(before);
  });

  it('previews a version not yet approved for a member of staff, and refuses it to anyone else', async () => {
    const draft = await createParticipantFixture(h.db, { approved: false });
    const token = await h.token();
    // The admin's preview: the version read through the staff API, its pages through the participant transport.
    const staffApi = createApiClient({
      baseUrl: 'http://localhost/api',
      getToken: () => token,
      fetch: async (input, init) => h.app.request(new Request(input, init)),
    });
    const survey = previewSurvey(await surveysApi(staffApi).detail(String(draft.oFormId)));
    const staff = previewRunner(survey, draft.oFormIdentity, token);
    await staff.start();
    expect(staff.getState()).toMatchObject({ phase: 'page', survey: { identity: draft.oFormIdentity, languages: ['en', 'es'] } });
    staff.answer('q_choice', 'skip');
    await staff.next();
    expect(staff.getState().page?.identity).toBe('p3');

    const anonymous = previewRunner(survey, draft.oFormIdentity);
    await anonymous.start();
    expect(anonymous.getState().phase).toBe('failed');
  });
});
