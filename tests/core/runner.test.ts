import { describe, expect, it, vi } from 'vitest';
import { nextPage, type NavField } from '@core/survey/navigation';
import {
  createRunner,
  OutcomeReached,
  type ContactTransport,
  type ContactValue,
  type LeadContact,
  type Qualification,
  type ResumeTransport,
  type RunnerContactField,
  type RunnerField,
  type RunnerOptions,
  type RunnerPage,
  type RunnerSnapshot,
  type RunnerTransport,
  type SaveResult,
  type TrialSite,
} from '@core/survey/runner';
import type { Answers } from '@core/survey/answers';
import type { FieldConfiguration } from '@core/model/survey';
import { later } from '../support/runnerLater';
import { previewTransport, type LeadPreviewApi } from '@core/api/surveyPreview';
import { fieldConfig } from '../support/fieldConfig';

/** The survey the preview runs (the caller knows it: no loadSurvey call). */
const PREVIEWED = { id: '10', identity: 'S1', title: 'Screen', containerCount: 4 };

/** What a transport throws for a submission it can no longer act for. */
class GoneError extends Error {}

const option = (value: string, transition: { to: 'page'; identity: string } | { to: 'end' } | null = null) => ({
  label: value,
  value,
  translations: {},
  isDisqualified: false,
  transition,
});

/** The fake server's pages: the runner's shape, each question with its whole configuration (the fake routes by the options' transitions). */
type ServerPage = Omit<RunnerPage, 'fields'> & { fields: (RunnerField & { configuration: FieldConfiguration })[] };

/** Four pages: p1's choice jumps to p3 or ends; p2 asks an e-mail; p3 and p4 follow in order. */
const PAGES: ServerPage[] = [
  {
    id: '1',
    identity: 'p1',
    title: 'Start',
    displayOrder: 1,
    fields: [
      {
        id: 'f1',
        identity: 'q1',
        type: 'single',
        title: 'Route?',
        displayOrder: 1,
        configuration: fieldConfig({
          required: true,
          options: [option('skip', { to: 'page', identity: 'p3' }), option('stop', { to: 'end' }), option('stay')],
        }),
      },
    ],
  },
  {
    id: '2',
    identity: 'p2',
    title: 'Contact',
    displayOrder: 2,
    fields: [{ id: 'f2', identity: 'q2', type: 'email', title: 'E-mail', displayOrder: 1, configuration: fieldConfig() }],
  },
  { id: '3', identity: 'p3', title: 'Three', displayOrder: 3, fields: [] },
  { id: '4', identity: 'p4', title: 'Four', displayOrder: 4, fields: [] },
];

/** `opensFirstPage`: the start opens the first page's entry with the submission, as the participant API does when asked. */
function fakeServer({ opensFirstPage = false } = {}) {
  const calls: string[] = [];
  const opened: (string | undefined)[] = [];
  const entries = new Map<string, string>(); // entry id -> page identity
  const saved = new Map<string, Answers>();
  const sanitized: string[][] = [];
  const failNext = new Set<string>();
  let entrySeq = 0;
  const guard = (name: string) => {
    calls.push(name);
    if (failNext.delete(name)) throw new Error(`${name} failed`);
  };
  const route = (shown: RunnerPage, answers: Answers): SaveResult => {
    const page = PAGES.find((p) => p.identity === shown.identity)!;
    const fields: NavField[] = page.fields.map((f) => ({ identity: f.identity, type: f.type, displayOrder: f.displayOrder, options: f.configuration.options }));
    const next = nextPage(PAGES, page.identity, fields, answers);
    if (next.to !== 'page') return { ok: true, nextContainerIdentity: null, nextContainerEntryId: null };
    return { ok: true, nextContainerIdentity: next.identity, nextContainerEntryId: null };
  };
  const transport: RunnerTransport = {
    async loadSurvey(identity) {
      guard('loadSurvey');
      return { id: '10', identity, title: 'Screen', containerCount: PAGES.length };
    },
    async createSubmission(_survey, _language, firstPage) {
      guard('createSubmission');
      opened.push(firstPage?.identity);
      if (!opensFirstPage || !firstPage) return { submissionId: 's1' };
      const id = `e${++entrySeq}`;
      entries.set(id, firstPage.identity);
      return { submissionId: 's1', entryId: id };
    },
    async firstPage() {
      guard('firstPage');
      return PAGES[0]!;
    },
    async page(_survey, identity) {
      guard(`page:${identity}`);
      const found = PAGES.find((p) => p.identity === identity);
      if (!found) throw new Error('no page');
      return found;
    },
    async createEntry(_submission, page) {
      guard('createEntry');
      const id = `e${++entrySeq}`;
      entries.set(id, page.identity);
      return { entryId: id };
    },
    async saveAnswers(entryId, answers) {
      guard('saveAnswers');
      const page = PAGES.find((p) => p.identity === entries.get(entryId))!;
      if (answers.q2 === 'taken@example.com') return { ok: false, errors: { q2: 'This e-mail was already used.' } };
      saved.set(entryId, answers);
      return route(page, answers);
    },
    async previewAnswers(page, answers) {
      guard('previewAnswers');
      return route(page, answers);
    },
    async sanitize(_submission, entryIds) {
      guard('sanitize');
      sanitized.push(entryIds);
      for (const id of entryIds) saved.delete(id);
      return true;
    },
    async qualification() {
      guard('qualification');
      return { isQualified: false, outcome: 'notQualified' };
    },
  };
  return { transport, calls, saved, sanitized, failNext, opened };
}

const pageOf = (r: ReturnType<typeof createRunner>) => r.getState().page?.identity;

/** A runner of survey S1 over `transport`, started: it shows the first page. */
async function started(options: Omit<RunnerOptions, 'later' | 'identity'>) {
  const runner = createRunner({ later, identity: 'S1', ...options });
  await runner.start();
  return runner;
}

describe('survey runner', () => {
  it('creates the submission and the first entry when the first page is sent, then branches to a later page and on to the end', async () => {
    const server = fakeServer();
    const runner = createRunner({ later, transport: server.transport, identity: 'S1' });
    const phases: string[] = [];
    runner.subscribe((s) => phases.push(s.phase));
    await runner.start();
    // Showing the first page starts nothing: "started" means a page was answered.
    expect(server.calls).toEqual(['loadSurvey', 'firstPage']);
    expect(pageOf(runner)).toBe('p1');
    expect(runner.getState().progress).toEqual({ value: 0, max: 4 });
    expect(runner.snapshot()).toBeNull();

    runner.answer('q1', 'skip');
    await runner.next();
    // SPEC's order: the submission, the page entry, its answers.
    expect(server.calls.slice(2, 5)).toEqual(['createSubmission', 'createEntry', 'saveAnswers']);
    expect(pageOf(runner)).toBe('p3');
    expect(runner.getState().progress.value).toBe(1);
    expect(phases).toContain('saving');

    await runner.next();
    expect(pageOf(runner)).toBe('p4');
    await runner.next();
    const done = runner.getState();
    expect(done.phase).toBe('finished');
    expect(done.qualification).toEqual({ isQualified: false, outcome: 'notQualified' });
    expect(done.progress.value).toBe(4);
  });

  it("opens the first page's entry with the submission when the server does: the first Next is two calls", async () => {
    const server = fakeServer({ opensFirstPage: true });
    const runner = await started({ transport: server.transport });
    runner.answer('q1', 'skip');
    server.failNext.add('saveAnswers');
    await runner.next();
    // The save failed after the start: the retry sends the answers to the entry already opened.
    expect(runner.getState().phase).toBe('failed');
    await runner.retry();
    // (This fake answers no next entry with a save, so p3's is made on its own.)
    expect(server.calls.slice(2)).toEqual(['createSubmission', 'saveAnswers', 'saveAnswers', 'page:p3', 'createEntry']);
    expect(server.opened).toEqual(['p1']);
    expect([...server.saved.keys()]).toEqual(['e1']);
    expect(pageOf(runner)).toBe('p3');
  });

  it('ends at once on a transition to end', async () => {
    const runner = await started({ transport: fakeServer().transport });
    runner.answer('q1', 'stop');
    await runner.next();
    expect(runner.getState().phase).toBe('finished');
  });

  it('checks answers before sending, in the participant language, and shows the server’s field errors', async () => {
    const server = fakeServer();
    const runner = await started({ transport: server.transport, language: 'es' });
    await runner.next();
    expect(runner.getState().errors).toEqual({ q1: 'Este campo es obligatorio.' });
    expect(server.calls).not.toContain('saveAnswers');
    runner.answer('q1', 'stay');
    expect(runner.getState().errors).toEqual({});
    await runner.next();
    expect(pageOf(runner)).toBe('p2');
    runner.answer('q2', 'not-an-email');
    await runner.next();
    expect(runner.getState().errors.q2).toBe('Debe ser un formato de correo electrónico válido.');
    runner.answer('q2', 'taken@example.com');
    await runner.next();
    expect(runner.getState()).toMatchObject({ phase: 'page', errors: { q2: 'This e-mail was already used.' } });
    expect(pageOf(runner)).toBe('p2');
  });

  it('goes back, keeping the answers given, and moves progress down', async () => {
    const runner = await started({ transport: fakeServer().transport });
    runner.answer('q1', 'stay');
    await runner.next();
    expect(runner.getState().progress.value).toBe(1);
    await runner.back();
    expect(pageOf(runner)).toBe('p1');
    expect(runner.getState().answers).toEqual({ q1: 'stay' });
    expect(runner.getState().progress.value).toBe(0);
    expect(runner.getState().history.map((v) => v.page)).toEqual(['p1']);
    await runner.back();
    expect(pageOf(runner)).toBe('p1');
  });

  /** A run on the fake server through to its last page, `email` given on the second. */
  async function onLastPage(email: string) {
    const server = fakeServer();
    const runner = await started({ transport: server.transport });
    runner.answer('q1', 'stay');
    await runner.next();
    runner.answer('q2', email);
    await runner.next();
    return { server, runner };
  }

  it('going back abandons the page left: its entry is sanitized, its answers stay on screen if seen again', async () => {
    const { server, runner } = await onLastPage('ann@example.com');
    const [, p2Entry, p3Entry] = runner.getState().history.map((v) => v.entryId!);
    expect(server.saved.has(p2Entry!)).toBe(true);
    await runner.back();
    expect(server.sanitized).toEqual([[p3Entry]]);
    await runner.back();
    expect(server.sanitized).toEqual([[p3Entry], [p2Entry]]);
    expect(server.saved.has(p2Entry!)).toBe(false);
    expect(runner.getState().answers).toEqual({ q1: 'stay' });
    expect(pageOf(runner)).toBe('p1');
  });

  it('shows the first page before the submission exists; a Next meanwhile waits for its entry', async () => {
    const server = fakeServer();
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const createSubmission = server.transport.createSubmission;
    server.transport.createSubmission = async (...args) => (await slow, createSubmission(...args));
    const runner = createRunner({ later, transport: server.transport, identity: 'S1' });
    const started = runner.start();
    await vi.waitFor(() => expect(pageOf(runner)).toBe('p1'));
    expect(runner.getState().phase).toBe('page');
    expect(server.calls).not.toContain('createSubmission');
    runner.answer('q1', 'stay');
    const next = runner.next();
    release();
    await Promise.all([started, next]);
    expect(server.calls).not.toContain('previewAnswers');
    expect(server.calls.filter((c) => c === 'saveAnswers')).toHaveLength(1);
    expect(pageOf(runner)).toBe('p2');
  });

  it('revisiting an earlier page discards the later history and sanitizes those pages', async () => {
    const { server, runner } = await onLastPage('jane@example.com');
    expect(pageOf(runner)).toBe('p3');
    const entries = runner.getState().history.map((v) => v.entryId);

    await runner.goTo(0);
    expect(pageOf(runner)).toBe('p1');
    expect(server.sanitized).toEqual([[entries[1], entries[2]]]);
    expect(server.saved.has(entries[1]!)).toBe(false);
    expect(runner.getState().history).toHaveLength(1);
    expect(runner.getState().progress.value).toBe(0);
  });

  it('previews without writing anything and, told no other outcome, ends qualified', async () => {
    const server = fakeServer();
    const runner = await started({ transport: previewTransport(server.transport, PREVIEWED), preview: true });
    runner.answer('q1', 'skip');
    await runner.next();
    await runner.next();
    await runner.next();
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'qualified', qualification: { isQualified: true } });
    expect(server.calls.filter((c) => ['createSubmission', 'createEntry', 'saveAnswers', 'sanitize', 'qualification'].includes(c))).toEqual([]);
    expect(server.calls).toContain('previewAnswers');
  });

  it("previews a lead's outcome: its form from the staff preview, No thanks, and Submit thanked with nothing stored", async () => {
    const server = fakeServer();
    const asked: unknown[] = [];
    const leads: LeadPreviewApi = {
      async previewForm(request) {
        asked.push(['form', request]);
        const fields: RunnerContactField[] = [
          { id: 'c1', name: 'firstName', label: 'First name', fieldType: 'text', required: true },
          { id: 'c2', name: 'email', label: 'E-mail', fieldType: 'email', required: true },
          { id: 'c3', name: 'zip', label: 'ZIP', fieldType: 'zip', required: false },
        ];
        return { fields, messages: { contactForm: 'No site near you yet.', consent: 'Tell me when one opens.' } };
      },
      async preview(request) {
        asked.push(['sent', request]);
        return request.values.email === 'taken@example.com'
          ? { ok: false, errors: { email: 'Not this one.' } }
          : { ok: true, messages: { contactForm: 'Thank you.', consent: '' } };
      },
    };
    const request = { screenerId: 7, oFormId: 10, language: 'en' };
    const toForm = async () => {
      const runner = await started({
        transport: previewTransport(server.transport, PREVIEWED, { outcome: 'noTrialSites', leads, request }),
        preview: true,
      });
      runner.answer('q1', 'stop');
      await runner.next();
      return runner;
    };
    const runner = await toForm();
    expect(runner.getState()).toMatchObject({
      phase: 'contact',
      lead: 'noTrialSites',
      outcome: 'noTrialSites',
      messages: { contactForm: 'No site near you yet.', consent: 'Tell me when one opens.' },
    });
    runner.setContact('firstName', 'Ada');
    runner.setContact('email', 'taken@example.com');
    runner.submitContact();
    // The consent box first, as in a run.
    expect(runner.getState().errors).toHaveProperty('acceptTerms');
    runner.accept(true);
    runner.submitContact();
    await vi.waitFor(() => expect(runner.getState()).toMatchObject({ phase: 'contact', errors: { email: 'Not this one.' } }));
    runner.setContact('email', 'ada@example.com');
    runner.submitContact();
    await vi.waitFor(() => expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'noTrialSites', messages: { contactForm: 'Thank you.' } }));
    expect(asked[0]).toEqual(['form', { ...request, kind: 'noTrialSites' }]);
    expect(asked.at(-1)).toEqual([
      'sent',
      { ...request, kind: 'noTrialSites', values: { firstName: 'Ada', email: 'ada@example.com', zip: '' }, acceptTerms: true, zip: null },
    ]);
    expect(runner.snapshot()).toBeNull();

    // No thanks: the outcome, nothing sent.
    const declined = await toForm();
    asked.length = 0;
    await declined.back();
    expect(declined.getState()).toMatchObject({ phase: 'finished', outcome: 'noTrialSites' });
    expect(asked).toEqual([]);
    expect(server.calls.filter((c) => ['createSubmission', 'createEntry', 'saveAnswers', 'sanitize', 'qualification'].includes(c))).toEqual([]);
  });

  it('turns a failed call into a state with a message, and retry carries on from there', async () => {
    const server = fakeServer();
    server.failNext.add('loadSurvey');
    const runner = createRunner({ later, transport: server.transport, identity: 'S1', failureMessage: 'Could not load. Try again.' });
    await expect(runner.start()).resolves.toBeUndefined();
    expect(runner.getState()).toMatchObject({ phase: 'failed', message: 'Could not load. Try again.' });
    await runner.retry();
    expect(pageOf(runner)).toBe('p1');

    runner.answer('q1', 'skip');
    server.failNext.add('page:p3');
    await runner.next();
    expect(runner.getState().phase).toBe('failed');
    expect(runner.getState().progress.value).toBe(0);
    await runner.retry();
    expect(pageOf(runner)).toBe('p3');
    expect(runner.getState().progress.value).toBe(1);
    expect(runner.getState().message).toBeNull();
  });
});

describe('survey runner after the pages', () => {
  const SITES: TrialSite[] = [
    { id: 'near', name: 'Near clinic', distanceMiles: 2.4, engagementId: 'g1' },
    { id: 'far', name: 'Far clinic', distanceMiles: 18, engagementId: 'g1' },
  ];
  const FIELDS: RunnerContactField[] = [
    { id: 'c1', name: 'firstName', label: 'First name', fieldType: 'text', required: true },
    { id: 'c2', name: 'email', label: 'E-mail', fieldType: 'email', required: true },
    { id: 'c3', name: 'zip', label: 'ZIP', fieldType: 'zip', required: false },
  ];

  function contactServer(
    qualification: Qualification = { isQualified: true, outcome: 'qualified', messages: { contactForm: '<p>Good news</p>', consent: 'Agree?' } },
  ) {
    const server = fakeServer();
    const sent: { engagementSiteLocationId: string; values: Record<string, ContactValue>; acceptTerms: boolean }[] = [];
    // Whether the server finds the channel's retake window still holding.
    const retakeWindow = { holds: true };
    const zips: string[] = [];
    let token: string | null = null;
    const transport: RunnerTransport & ContactTransport & ResumeTransport = {
      ...server.transport,
      async createSubmission() {
        server.calls.push('createSubmission');
        token = 'tok-1';
        return { submissionId: 's1' };
      },
      async qualification() {
        server.calls.push('qualification');
        return qualification;
      },
      async sites(_id, zip) {
        server.calls.push('sites');
        zips.push(zip);
        if (zip === '00000') return { ok: false, errors: { zip: 'Unknown ZIP code.' } };
        if (zip === '99999') return { ok: true, outcome: 'noTrialSites', sites: [], messages: { contactForm: 'No sites near you.' } };
        return { ok: true, outcome: 'qualified', sites: SITES, messages: { contactForm: 'Pick a site', consent: 'Agree?' } };
      },
      async contactFields() {
        server.calls.push('contactFields');
        return { fields: FIELDS, messages: { contactForm: 'Your details', consent: 'Do you agree?' } };
      },
      async submitContact(_id, contact) {
        server.calls.push('submitContact');
        if (contact.values.email === 'refused@example.com') return { ok: false, errors: { email: 'Refused by the server.' } };
        sent.push(contact);
        return { ok: true, outcome: 'completed', messages: { contactForm: 'Thank you!' } };
      },
      credentials: () => token,
      resume(_id, credentials) {
        token = credentials;
      },
      async entryAnswers() {
        server.calls.push('entryAnswers');
        return { q2: 'jane@example.com' };
      },
      async outcome(id) {
        server.calls.push(`outcome:${id}`);
        if (!retakeWindow.holds) throw new GoneError();
        return { outcome: 'completed', messages: { contactForm: 'Thank you!' } };
      },
    };
    return { ...server, transport, sent, zips, retakeWindow };
  }

  async function runToQualification(runner: ReturnType<typeof createRunner>) {
    await runner.start();
    runner.answer('q1', 'stop');
    await runner.next();
  }

  it('asks a ZIP, offers the sites nearest first, takes the contact form and consent, and completes', async () => {
    const server = contactServer();
    const runner = createRunner({ later, transport: server.transport, identity: 'S1' });
    await runToQualification(runner);
    expect(runner.getState()).toMatchObject({ phase: 'zip', outcome: 'qualified', messages: { contactForm: '<p>Good news</p>' } });

    runner.enterZip('12');
    await runner.submitZip();
    expect(runner.getState().errors.zip).toBe('Must be a valid postal code.');
    expect(server.calls).not.toContain('sites');
    runner.enterZip('00000');
    await runner.submitZip();
    expect(runner.getState()).toMatchObject({ phase: 'zip', errors: { zip: 'Unknown ZIP code.' } });
    runner.enterZip('10001');
    await runner.submitZip();
    expect(runner.getState().phase).toBe('sites');
    expect(runner.getState().sites.map((s) => s.id)).toEqual(['near', 'far']);

    await runner.chooseSite('near');
    expect(runner.getState()).toMatchObject({
      phase: 'contact',
      siteId: 'near',
      contact: { firstName: '', email: '', zip: '10001' },
      messages: { consent: 'Do you agree?' },
    });
    runner.submitContact();
    expect(runner.getState().errors).toEqual({ firstName: 'This field is required.', email: 'This field is required.' });
    runner.setContact('firstName', 'Jane');
    runner.setContact('email', 'refused@example.com');
    runner.submitContact();
    expect(runner.getState().phase).toBe('consent');

    await runner.submitConsent();
    expect(runner.getState().errors.acceptTerms).toBe('You must accept the terms and conditions in order to proceed.');
    runner.accept(true);
    await runner.submitConsent();
    // The server's refusal of a contact value sends the participant back to the form.
    expect(runner.getState()).toMatchObject({ phase: 'contact', errors: { email: 'Refused by the server.' } });
    runner.setContact('email', 'jane@example.com');
    runner.submitContact();
    await runner.back();
    expect(runner.getState().phase).toBe('contact');
    runner.submitContact();
    await runner.submitConsent();
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'completed', messages: { contactForm: 'Thank you!' } });
    expect(server.sent).toEqual([
      { engagementSiteLocationId: 'near', values: { firstName: 'Jane', email: 'jane@example.com', zip: '10001' }, acceptTerms: true },
    ]);
    // The outcome is a place too, kept as the submission and its token alone (no path, no
    // outcome, no details): a reload asks the server for the outcome and shows it again.
    const snap = runner.snapshot();
    expect(snap).toEqual({ identity: 'S1', submissionId: 's1', credentials: 'tok-1', language: 'en', history: [], progress: 4, step: 'finished' });
    const again = contactServer();
    const resumed = createRunner({ later, transport: again.transport, identity: 'S1', resume: snap });
    await resumed.start();
    expect(resumed.getState()).toMatchObject({ phase: 'finished', outcome: 'completed', messages: { contactForm: 'Thank you!' } });
    expect(again.calls).toEqual(['outcome:s1']);
  });

  it("gives way to a fresh run when the server finds a finished run's retake window over", async () => {
    const snap: RunnerSnapshot = { identity: 'S1', submissionId: 's1', credentials: 'tok-1', language: 'en', history: [], progress: 4, step: 'finished' };
    const again = contactServer();
    again.retakeWindow.holds = false;
    const abandoned: unknown[] = [];
    const resumed = createRunner({
      later,
      transport: again.transport,
      identity: 'S1',
      resume: snap,
      abandonResume: (error) => abandoned.push(error) > 0 && error instanceof GoneError,
    });
    await resumed.start();
    expect(abandoned).toHaveLength(1);
    expect(resumed.getState()).toMatchObject({ phase: 'page', outcome: null, history: [{ page: 'p1' }] });
    expect(again.calls).toEqual(['outcome:s1', 'loadSurvey', 'firstPage']);

    // Without abandonResume's leave, the failure is the participant's to retry.
    const kept = contactServer();
    kept.retakeWindow.holds = false;
    const failed = createRunner({ later, transport: kept.transport, identity: 'S1', resume: snap });
    await failed.start();
    expect(failed.getState().phase).toBe('failed');
  });

  it('resumes at every step after the pages: the ZIP, the sites with the one chosen, and the contact form (empty: details never stored) for contact and consent', async () => {
    const server = contactServer();
    const runner = createRunner({ later, transport: server.transport, identity: 'S1' });
    await runToQualification(runner);
    runner.enterZip('10001');
    const atZip = runner.snapshot();
    expect(atZip).toMatchObject({ step: 'zip' });
    await runner.submitZip();
    runner.pickSite('far');
    const atSites = runner.snapshot();
    expect(atSites).toMatchObject({ step: 'sites', siteId: 'far' });
    // The ZIP typed at its step is the participant's, like the contact details: never in a snapshot.
    for (const snap of [atZip, atSites]) expect(JSON.stringify(snap)).not.toContain('10001');
    await runner.chooseSite('far');
    runner.setContact('firstName', 'Jane');
    runner.setContact('email', 'jane@example.com');
    const atContact = runner.snapshot();
    runner.submitContact();
    const atConsent = runner.snapshot();
    expect(atConsent).toMatchObject({ step: 'consent', siteId: 'far' });
    for (const snap of [atContact, atConsent]) expect(JSON.stringify(snap)).not.toMatch(/Jane|jane@/);

    // The ZIP a resume starts from is the survey's, as the server holds its pages' answers.
    const ZIP_PAGE: RunnerPage = {
      id: '1',
      identity: 'p1',
      title: 'Where',
      displayOrder: 1,
      fields: [{ id: 'fz', identity: 'q1', type: 'zip', title: 'ZIP', displayOrder: 1, configuration: fieldConfig({}) }],
    };
    const resumeAt = async (snap: typeof atZip, held: Answers = { q1: '10001' }) => {
      const again = contactServer();
      const transport = { ...again.transport, page: async () => ZIP_PAGE, entryAnswers: async () => held };
      const resumed = createRunner({ later, transport, identity: 'S1', resume: snap });
      await resumed.start();
      return { state: resumed.getState(), calls: again.calls };
    };
    const zip = await resumeAt(atZip);
    expect(zip.state).toMatchObject({ phase: 'zip', zip: '10001', outcome: 'qualified' });
    expect(zip.calls).toEqual(['loadSurvey', 'qualification']);
    // No ZIP in the survey's answers: the ZIP is asked again.
    expect((await resumeAt(atSites, {})).state).toMatchObject({ phase: 'zip', zip: '' });
    const sites = await resumeAt(atSites);
    expect(sites.state).toMatchObject({ phase: 'sites', zip: '10001', siteId: 'far' });
    expect(sites.state.sites.map((site) => site.id)).toEqual(['near', 'far']);
    for (const snap of [atContact, atConsent]) {
      const contact = await resumeAt(snap);
      expect(contact.state).toMatchObject({ phase: 'contact', siteId: 'far', contact: { firstName: '', email: '', zip: '10001' } });
      expect(contact.calls).toEqual(['loadSurvey', 'qualification', 'sites', 'contactFields']);
    }
  });

  /** A one-page survey whose only question, `where`, is a required ZIP titled `title`. */
  const wherePage = (title: string): RunnerPage => ({
    id: '9',
    identity: 'pz',
    title: 'Where',
    displayOrder: 1,
    fields: [{ id: 'fz', identity: 'where', type: 'zip', title, displayOrder: 1, configuration: fieldConfig({ required: true }) }],
  });

  it('uses a ZIP answered in the survey and ends with noTrialSites when none is within reach', async () => {
    const server = contactServer();
    const page = wherePage('ZIP');
    const runner = await started({
      transport: {
        ...server.transport,
        firstPage: async () => page,
        saveAnswers: async () => ({ ok: true, nextContainerIdentity: null, nextContainerEntryId: null }),
      },
    });
    runner.answer('where', '99999');
    await runner.next();
    expect(server.zips).toEqual(['99999']);
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'noTrialSites', messages: { contactForm: 'No sites near you.' } });
  });

  it("on a channel whose region is Canada: the survey's ZIP takes a Canadian postal code, searches Canada with it and fills the ZIP field", async () => {
    const server = contactServer();
    const page = wherePage('Postal code');
    const searched: unknown[] = [];
    const runner = await started({
      transport: {
        ...server.transport,
        loadSurvey: async (identity) => ({ ...(await server.transport.loadSurvey(identity)), region: 'CA' }),
        firstPage: async () => page,
        saveAnswers: async () => ({ ok: true, nextContainerIdentity: null, nextContainerEntryId: null }),
        sites: async (id, zip, country) => (searched.push([zip, country]), server.transport.sites(id, zip, country)),
      },
    });
    // A US ZIP is no Canadian postal code: refused before anything is sent.
    runner.answer('where', '12345');
    await runner.next();
    expect(runner.getState()).toMatchObject({ phase: 'page', errors: { where: 'Must be a valid postal code.' } });
    expect(server.calls).not.toContain('createSubmission');
    runner.answer('where', 'M5V 3L9');
    await runner.next();
    expect(searched).toEqual([['M5V 3L9', 'CA']]);
    expect(runner.getState()).toMatchObject({ phase: 'sites', country: 'CA' });
    await runner.chooseSite('near');
    expect(runner.getState()).toMatchObject({ phase: 'contact', contact: { zip: 'M5V 3L9' } });
    // The ZIP contact field takes Canada's postal codes too.
    runner.setContact('firstName', 'Tess');
    runner.setContact('email', 'tess@example.ca');
    runner.setContact('zip', '10001');
    runner.submitContact();
    expect(runner.getState().errors).toEqual({ zip: 'Must be a valid postal code.' });
    runner.setContact('zip', 'm5v3l9');
    runner.submitContact();
    expect(runner.getState().phase).toBe('consent');
    // Back to the site step: Canada is the country chosen, its field a postal code or town.
    for (const step of ['contact', 'sites', 'zip']) {
      await runner.back();
      expect(runner.getState().phase).toBe(step);
    }
    expect(runner.getState()).toMatchObject({ country: 'CA', zip: 'M5V 3L9' });
  });

  it("offers a lead's postal code in the channel's region at notQualified and sends it with that country", async () => {
    const server = contactServer({ isQualified: false, outcome: 'notQualified', messages: { contactForm: 'Not this time.', consent: 'Keep me posted.' } });
    const leads: LeadContact[] = [];
    const transport = {
      ...server.transport,
      loadSurvey: async (identity: string) => ({ ...(await server.transport.loadSurvey(identity)), region: 'CA' }),
      leadFields: async () => ({ fields: FIELDS.slice(0, 2), messages: { contactForm: 'Leave your details.', consent: 'Keep me posted.' } }),
      submitLead: async (_id: string, lead: LeadContact) => (leads.push(lead), { ok: true as const, messages: {} }),
    };
    const runner = createRunner({ later, transport, identity: 'S1' });
    await runToQualification(runner);
    expect(runner.getState()).toMatchObject({ phase: 'contact', lead: 'notQualified', country: 'CA' });
    runner.setContact('firstName', 'Tess');
    runner.setContact('email', 'tess@example.ca');
    runner.enterZip('M5V 3L9');
    runner.accept(true);
    runner.submitContact();
    await vi.waitFor(() => expect(runner.getState().phase).toBe('finished'));
    expect(leads).toEqual([{ values: { firstName: 'Tess', email: 'tess@example.ca' }, acceptTerms: true, zip: 'M5V 3L9', country: 'CA' }]);
  });

  it("resumes at a lead's form not yet sent: the form again, empty (details never in a snapshot), and sends a lead", async () => {
    const notQualified: Qualification = {
      isQualified: false,
      outcome: 'notQualified',
      messages: { contactForm: 'Not this time.', consent: 'Keep me posted.' },
    };
    const leadServer = () => {
      const server = contactServer(notQualified);
      const leads: LeadContact[] = [];
      const transport = {
        ...server.transport,
        async leadFields() {
          server.calls.push('leadFields');
          return { fields: FIELDS.slice(0, 2), messages: { contactForm: 'Leave your details.', consent: 'Keep me posted.' } };
        },
        submitLead: async (_id: string, lead: LeadContact) => (leads.push(lead), { ok: true as const, messages: { contactForm: 'Thank you.' } }),
      };
      return { calls: server.calls, transport, leads };
    };
    const first = leadServer();
    const runner = createRunner({ later, transport: first.transport, identity: 'S1' });
    await runToQualification(runner);
    runner.setContact('firstName', 'Tess');
    runner.setContact('email', 'tess@example.com');
    const atLead = runner.snapshot();
    expect(atLead).toMatchObject({ step: 'contact' });
    expect(JSON.stringify(atLead)).not.toMatch(/Tess|tess@/);

    const again = leadServer();
    const resumed = createRunner({ later, transport: again.transport, identity: 'S1', resume: atLead });
    await resumed.start();
    expect(resumed.getState()).toMatchObject({
      phase: 'contact',
      lead: 'notQualified',
      contact: { firstName: '', email: '' },
      acceptTerms: false,
      messages: { contactForm: 'Leave your details.', consent: 'Keep me posted.' },
    });
    expect(again.calls.slice(-2)).toEqual(['qualification', 'leadFields']);
    resumed.setContact('firstName', 'Tess');
    resumed.setContact('email', 'tess@example.com');
    resumed.accept(true);
    resumed.submitContact();
    await vi.waitFor(() => expect(resumed.getState()).toMatchObject({ phase: 'finished', outcome: 'notQualified' }));
    expect(again.leads).toEqual([{ values: { firstName: 'Tess', email: 'tess@example.com' }, acceptTerms: true, zip: null, country: null }]);
    expect(first.leads).toEqual([]);
  });

  it('keeps a lead outside the US with the country and town the sites were searched for', async () => {
    const server = contactServer();
    const leadCalls: unknown[] = [];
    const transport = {
      ...server.transport,
      async sites(_id: string, zip: string, country?: string) {
        server.calls.push(`sites:${zip}:${country}`);
        return { ok: true as const, outcome: 'noTrialSites' as const, sites: [], messages: { contactForm: 'No site yet.' } };
      },
      async leadFields(_id: string, zip: string, country?: string) {
        leadCalls.push(['fields', zip, country]);
        return { fields: FIELDS, messages: { contactForm: 'Leave your details.', consent: 'Tell me when one opens.' } };
      },
      async submitLead(_id: string, lead: LeadContact) {
        leadCalls.push(['lead', lead]);
        return { ok: true as const, messages: { contactForm: 'Thank you.' } };
      },
    };
    const runner = createRunner({ later, transport, identity: 'S1' });
    await runToQualification(runner);
    runner.enterZip('Madrid', 'ES');
    await runner.submitZip();
    expect(server.calls).toContain('sites:Madrid:ES');
    // The town is no US ZIP: the form's ZIP field starts empty.
    expect(runner.getState()).toMatchObject({ phase: 'contact', lead: 'noTrialSites', contact: { zip: '' } });
    runner.setContact('firstName', 'Lucía');
    runner.setContact('email', 'lucia@example.es');
    runner.accept(true);
    runner.submitContact();
    await vi.waitFor(() => expect(runner.getState().phase).toBe('finished'));
    expect(leadCalls).toEqual([
      ['fields', 'Madrid', 'ES'],
      ['lead', { values: { firstName: 'Lucía', email: 'lucia@example.es', zip: '' }, acceptTerms: true, zip: 'Madrid', country: 'ES' }],
    ]);
  });

  it('ends with notQualified and the screener’s messages without asking for contact details', async () => {
    const server = contactServer({ isQualified: false, outcome: 'notQualified', messages: { contactForm: '<b>Sorry</b>', consent: null } });
    const runner = createRunner({ later, transport: server.transport, identity: 'S1' });
    await runToQualification(runner);
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'notQualified', messages: { contactForm: '<b>Sorry</b>' } });
    expect(server.calls).not.toContain('sites');
  });

  it('ends with notActive when the transport reports that nothing is runnable', async () => {
    const server = contactServer();
    const runner = await started({
      transport: {
        ...server.transport,
        loadSurvey: async () => {
          throw new OutcomeReached({ outcome: 'notActive', messages: { contactForm: 'Closed.' } });
        },
      },
    });
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'notActive', messages: { contactForm: 'Closed.' } });
  });

  it('in preview stops at the qualified outcome its transport answers, even with contact steps available', async () => {
    const server = contactServer();
    const runner = createRunner({ later, transport: server.transport, identity: 'S1', preview: true });
    await runToQualification(runner);
    expect(runner.getState()).toMatchObject({ phase: 'finished', outcome: 'qualified' });
    expect(server.calls.filter((c) => ['sites', 'contactFields', 'createSubmission'].includes(c))).toEqual([]);
  });

  it('a failed site search shows a retry that works', async () => {
    const server = contactServer();
    let failures = 1;
    const sites = server.transport.sites;
    const runner = createRunner({
      later,
      transport: {
        ...server.transport,
        sites: async (id, zip) => {
          if (failures-- > 0) throw new Error('down');
          return sites(id, zip);
        },
      },
      identity: 'S1',
    });
    await runToQualification(runner);
    runner.enterZip('10001');
    await runner.submitZip();
    expect(runner.getState().phase).toBe('failed');
    await runner.retry();
    expect(runner.getState().phase).toBe('sites');
  });

  it('picks the language from the survey and resumes a snapshot on the same page with its stored answers', async () => {
    const server = contactServer();
    const runner = await started({ transport: server.transport, chooseLanguage: () => 'es' });
    runner.answer('q1', 'stay');
    await runner.next();
    const snap = runner.snapshot();
    expect(snap).toMatchObject({ submissionId: 's1', credentials: 'tok-1', language: 'es', progress: 1, step: 'page' });
    expect(snap?.history.map((v) => v.page)).toEqual(['p1', 'p2']);

    const again = contactServer();
    const resumed = createRunner({ later, transport: again.transport, identity: 'S1', resume: snap });
    await resumed.start();
    expect(again.calls).not.toContain('createSubmission');
    expect(again.calls).toContain('entryAnswers');
    expect(resumed.getState()).toMatchObject({ phase: 'page', language: 'es', answers: { q2: 'jane@example.com' }, progress: { value: 1 } });
    expect(resumed.getState().page?.identity).toBe('p2');
    expect(resumed.snapshot()?.credentials).toBe('tok-1');
  });

  it('keeps no answer in a snapshot: a resumed page shows what the server holds, and Back the page before as the server holds it', async () => {
    const server = contactServer();
    const runner = await started({ transport: server.transport });
    runner.answer('q1', 'typed on the first page');
    // Before the submission exists there is nothing to resume: the answers live in memory only.
    expect(runner.snapshot()).toBeNull();
    runner.answer('q1', 'stay');
    await runner.next();
    runner.answer('q2', 'typed, not sent');
    const snap = runner.snapshot();
    expect(JSON.stringify(snap)).not.toContain('typed, not sent');
    expect(JSON.stringify(snap)).not.toContain('stay');
    expect(Object.keys(snap ?? {}).sort()).toEqual(['country', 'credentials', 'history', 'identity', 'language', 'progress', 'siteId', 'step', 'submissionId']);

    const again = contactServer();
    const stored: Record<string, Answers> = { e1: { q1: 'stay' }, e2: { q2: 'held by the server' } };
    const resumed = createRunner({
      later,
      transport: { ...again.transport, entryAnswers: async (entryId) => stored[entryId] ?? {} },
      identity: 'S1',
      resume: snap,
    });
    await resumed.start();
    expect(resumed.getState()).toMatchObject({ phase: 'page', answers: { q2: 'held by the server' } });
    await resumed.back();
    expect(resumed.getState().page?.identity).toBe('p1');
    expect(resumed.getState().answers).toEqual({ q1: 'stay' });
  });
});
