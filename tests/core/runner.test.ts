import { describe, expect, it } from 'vitest';
import { nextPage, type NavField } from '../../core/oform/navigation';
import { createRunner, type RunnerPage, type RunnerTransport, type SaveResult } from '../../core/oform/runner';
import type { Answers } from '../../core/oform/answers';
import type { FieldConfiguration } from '../../core/model/oform';

const config = (extra: Partial<FieldConfiguration> = {}): FieldConfiguration => ({ required: false, helperText: null, translations: {}, options: [], ...extra });
const option = (value: string, transition: { to: 'page'; identity: string } | { to: 'end' } | null = null) => ({
  label: value,
  value,
  translations: {},
  isDisqualified: false,
  transition,
});

/** Four pages: p1's choice jumps to p3 or ends; p2 asks an e-mail; p3 and p4 follow in order. */
const PAGES: RunnerPage[] = [
  {
    id: '1', identity: 'p1', title: 'Start', displayOrder: 1,
    fields: [{ id: 'f1', identity: 'q1', type: 'single', title: 'Route?', displayOrder: 1, configuration: config({ required: true, options: [option('skip', { to: 'page', identity: 'p3' }), option('stop', { to: 'end' }), option('stay')] }) }],
  },
  { id: '2', identity: 'p2', title: 'Contact', displayOrder: 2, fields: [{ id: 'f2', identity: 'q2', type: 'email', title: 'E-mail', displayOrder: 1, configuration: config() }] },
  { id: '3', identity: 'p3', title: 'Three', displayOrder: 3, fields: [] },
  { id: '4', identity: 'p4', title: 'Four', displayOrder: 4, fields: [] },
];

function fakeServer() {
  const calls: string[] = [];
  const entries = new Map<string, string>(); // entry id -> page identity
  const saved = new Map<string, Answers>();
  const sanitized: string[][] = [];
  const failNext = new Set<string>();
  let entrySeq = 0;
  const guard = (name: string) => {
    calls.push(name);
    if (failNext.delete(name)) throw new Error(`${name} failed`);
  };
  const route = (page: RunnerPage, answers: Answers): SaveResult => {
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
    async createSubmission() {
      guard('createSubmission');
      return { submissionId: 's1' };
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
  return { transport, calls, saved, sanitized, failNext };
}

const pageOf = (r: ReturnType<typeof createRunner>) => r.getState().page?.identity;

describe('survey runner', () => {
  it('creates the submission and the first entry, then branches to a later page and on to the end', async () => {
    const server = fakeServer();
    const runner = createRunner({ transport: server.transport, identity: 'S1' });
    const phases: string[] = [];
    runner.subscribe((s) => phases.push(s.phase));
    await runner.start();
    expect(server.calls.slice(0, 4)).toEqual(['loadSurvey', 'createSubmission', 'firstPage', 'createEntry']);
    expect(pageOf(runner)).toBe('p1');
    expect(runner.getState().progress).toEqual({ value: 0, max: 4 });

    runner.answer('q1', 'skip');
    await runner.next();
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

  it('ends at once on a transition to end', async () => {
    const runner = createRunner({ transport: fakeServer().transport, identity: 'S1' });
    await runner.start();
    runner.answer('q1', 'stop');
    await runner.next();
    expect(runner.getState().phase).toBe('finished');
  });

  it('checks answers before sending, in the participant language, and shows the server’s field errors', async () => {
    const server = fakeServer();
    const runner = createRunner({ transport: server.transport, identity: 'S1', language: 'es' });
    await runner.start();
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
    const runner = createRunner({ transport: fakeServer().transport, identity: 'S1' });
    await runner.start();
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

  it('revisiting an earlier page discards the later history and sanitizes those pages', async () => {
    const server = fakeServer();
    const runner = createRunner({ transport: server.transport, identity: 'S1' });
    await runner.start();
    runner.answer('q1', 'stay');
    await runner.next();
    runner.answer('q2', 'jane@example.com');
    await runner.next();
    expect(pageOf(runner)).toBe('p3');
    const entries = runner.getState().history.map((v) => v.entryId);

    await runner.goTo(0);
    expect(pageOf(runner)).toBe('p1');
    expect(server.sanitized).toEqual([[entries[1], entries[2]]]);
    expect(server.saved.has(entries[1]!)).toBe(false);
    expect(runner.getState().history).toHaveLength(1);
    expect(runner.getState().progress.value).toBe(0);
  });

  it('previews without writing anything and always qualifies', async () => {
    const server = fakeServer();
    const runner = createRunner({ transport: server.transport, identity: 'S1', preview: true });
    await runner.start();
    runner.answer('q1', 'skip');
    await runner.next();
    await runner.next();
    await runner.next();
    expect(runner.getState()).toMatchObject({ phase: 'finished', qualification: { isQualified: true } });
    expect(server.calls.filter((c) => ['createSubmission', 'createEntry', 'saveAnswers', 'sanitize', 'qualification'].includes(c))).toEqual([]);
    expect(server.calls).toContain('previewAnswers');
  });

  it('turns a failed call into a state with a message, and retry carries on from there', async () => {
    const server = fakeServer();
    server.failNext.add('loadSurvey');
    const runner = createRunner({ transport: server.transport, identity: 'S1', failureMessage: 'Could not load. Try again.' });
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
