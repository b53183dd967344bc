import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, type MountedWidget } from '../../widget/mount';
import { themeCss } from '../../widget/theme';
import type { FieldConfiguration, FieldType } from '@core/model/survey';
import {
  OutcomeReached,
  type ContactTransport,
  type Qualification,
  type RunnerField,
  type RunnerPage,
  type RunnerSnapshot,
  type RunnerSurvey,
  type SaveResult,
  type RunnerContactField,
  type RunnerTransport,
  type TrialSite,
} from '@core/survey/runner';
import type { Answers } from '@core/survey/answers';
import { HttpError } from '@core/participant/httpError';
import { previewTransport, type LeadPreviewApi } from '@core/api/surveyPreview';
import type { WidgetTransport } from '../../widget/controller';
import { fieldConfig } from '../support/fieldConfig';

const opt = (value: string, label = value, translations: Record<string, string> = {}) => ({
  label,
  value,
  translations,
  isDisqualified: false,
  transition: null,
});
const field = (identity: string, type: FieldType, extra: Partial<FieldConfiguration> = {}, title = identity): RunnerField => ({
  id: identity,
  identity,
  type,
  title,
  displayOrder: 1,
  configuration: fieldConfig(extra),
});

const SURVEY: RunnerSurvey = {
  id: '10',
  identity: 'S',
  title: 'Screen',
  containerCount: 2,
  languages: ['en', 'es'],
  styles: { backButton: { isShown: true }, progressBar: { background: 'CCCCCC', color: '123456' }, nextButton: { active: 'AB' } },
};

interface FakeOptions {
  pages?: RunnerPage[];
  qualification?: Qualification;
  survey?: RunnerSurvey;
  sites?: TrialSite[];
  contactFields?: RunnerContactField[];
  /** The SMS consent text the contact-fields answer carries (only when a phone number is asked). */
  sms?: string;
}

/** An in-memory participant API: pages in order, every call recorded, failures on demand. */
function fake(options: FakeOptions = {}) {
  const pages = options.pages ?? [
    {
      id: 'p1',
      identity: 'p1',
      title: 'About you',
      displayOrder: 1,
      fields: [field('q1', 'single', { required: true, options: [opt('a', 'Alpha', { es: 'Alfa' }), opt('b', 'Beta')] }, 'Pick one')],
    },
    { id: 'p2', identity: 'p2', title: 'More', displayOrder: 2, fields: [field('q2', 'text', {}, 'Anything else?')] },
  ];
  const calls: string[] = [];
  const saved: Answers[] = [];
  const fail = new Set<string>();
  const hold: { release?: () => void } = {};
  const guard = async (name: string) => {
    calls.push(name);
    if (hold.release === undefined && fail.delete(`hold:${name}`)) await new Promise<void>((r) => (hold.release = r));
    if (fail.delete(name)) throw new Error(`${name} down`);
  };
  let entry = 0;
  const transport: RunnerTransport & ContactTransport = {
    async loadSurvey() {
      await guard('loadSurvey');
      return options.survey ?? SURVEY;
    },
    async createSubmission() {
      await guard('createSubmission');
      return { submissionId: 's1' };
    },
    async firstPage() {
      await guard('firstPage');
      return pages[0]!;
    },
    async page(_s, identity) {
      await guard(`page:${identity}`);
      return pages.find((p) => p.identity === identity)!;
    },
    async createEntry(_s, page) {
      await guard('createEntry');
      return { entryId: `${page.identity}:${++entry}` };
    },
    async saveAnswers(entryId, answers) {
      await guard('saveAnswers');
      saved.push(answers);
      const index = pages.findIndex((p) => entryId.startsWith(`${p.identity}:`));
      const next = pages[index + 1];
      return { ok: true, nextContainerIdentity: next?.identity ?? null, nextContainerEntryId: null };
    },
    async previewAnswers(page) {
      await guard('previewAnswers');
      const next = pages[pages.indexOf(page) + 1];
      return { ok: true, nextContainerIdentity: next?.identity ?? null, nextContainerEntryId: null };
    },
    async sanitize() {
      return true;
    },
    async qualification() {
      await guard('qualification');
      return options.qualification ?? { isQualified: true, outcome: 'qualified', messages: { contactForm: '<p>You may qualify.</p>' } };
    },
    async sites(_s, zip) {
      await guard('sites');
      return {
        ok: true,
        outcome: 'qualified',
        messages: { contactForm: 'Choose where to go.' },
        sites: options.sites ?? [
          { id: 'esl1', name: 'Downtown Clinic', address1: '1 Main St', city: 'Springfield', state: 'IL', zipCode: zip, distanceMiles: 1.24 },
          { id: 'esl2', name: 'North Clinic', distanceMiles: 12 },
        ],
      };
    },
    async contactFields() {
      await guard('contactFields');
      return {
        fields: options.contactFields ?? [
          { id: 'c1', name: 'first_name', label: 'First name', fieldType: 'text', required: true, translations: { es: 'Nombre' } },
          { id: 'c2', name: 'phone', label: 'Phone', fieldType: 'phone', required: false },
        ],
        messages: { contactForm: 'Tell us how to reach you.', consent: '<em>We keep your data safe.</em>', ...(options.sms ? { sms: options.sms } : {}) },
      };
    },
    async submitContact(_s, contact) {
      await guard(`submitContact:${JSON.stringify(contact)}`);
      return { ok: true, outcome: 'completed', messages: { contactForm: '<strong>Thank you!</strong>' } };
    },
  };
  return { transport, calls, saved, fail, hold };
}

const mounted: MountedWidget[] = [];
afterEach(() => {
  for (const w of mounted.splice(0)) w.unmount();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function start(transport: WidgetTransport, extra: Partial<Parameters<typeof mount>[1]> = {}) {
  const host = document.createElement('div');
  document.body.append(host);
  const widget = mount(host, {
    mediaChannelId: '1',
    screenerId: '2',
    apiOrigin: 'http://api.test',
    transport,
    storage: null,
    browserLanguages: ['en-US'],
    ...extra,
  });
  mounted.push(widget);
  return widget.root;
}

const settle = () => new Promise((r) => setTimeout(r, 0));
async function until(root: ShadowRoot, check: (root: ShadowRoot) => unknown) {
  await vi.waitFor(() => {
    if (!check(root)) throw new Error('not yet');
  });
}
const $ = (root: ShadowRoot, selector: string) => root.querySelector(selector) as HTMLElement | null;
const $$ = (root: ShadowRoot, selector: string) => Array.from(root.querySelectorAll(selector)) as HTMLElement[];
const heading = (root: ShadowRoot) => $(root, 'h2')?.textContent;
const next = (root: ShadowRoot) => ($(root, 'button[type=submit]') as HTMLButtonElement).click();
function type(input: Element | null, value: string) {
  const el = input as HTMLInputElement;
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}
function tick(input: Element | null) {
  (input as HTMLInputElement).click();
}
/** sessionStorage as a map the test can read. */
function memoryStorage() {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as unknown as Storage;
  return { store, storage };
}
/** Waits for the first page ('About you'), chooses `value` there and lets the change settle. */
async function chooseOnFirstPage(root: ShadowRoot, value: string) {
  await until(root, (r) => heading(r) === 'About you');
  tick($(root, `input[value=${value}]`));
  await settle();
}
/** Answers the two pages ('a' on the first) and sends the last: what follows is the run's outcome. */
async function toEnd(root: ShadowRoot) {
  await chooseOnFirstPage(root, 'a');
  next(root);
  await until(root, (r) => heading(r) === 'More');
  next(root);
}
/** On the site step: searches near 62701, chooses the site at `index` of those offered (else goes on with the choice as it stands) and goes on to the contact form. */
async function siteNear62701(root: ShadowRoot, index?: number) {
  type($(root, '#tw-zip'), '62701');
  await settle();
  next(root);
  await until(root, (r) => heading(r) === 'Choose a study site');
  if (index !== undefined) {
    tick($$(root, 'input[name=tw-site]')[index]!);
    await settle();
  }
  next(root);
  await until(root, (r) => heading(r) === 'Your contact details');
}
/** Next refused: the step shows `error` and puts the focus on `field`; then `fix` answers it and Next goes on. */
async function refusedThenFixed(root: ShadowRoot, error: string, field: string, fix: (field: HTMLElement | null) => void) {
  next(root);
  await until(root, (r) => $(r, '.tw-error')?.textContent === error);
  expect(root.activeElement).toBe($(root, field));
  fix($(root, field));
  await settle();
  next(root);
}
/** The label element naming a control, by `for` or by wrapping it. */
function labelOf(root: ShadowRoot, control: HTMLElement): string {
  const byFor = control.id ? root.querySelector(`label[for="${control.id}"]`) : null;
  return (byFor ?? control.closest('label'))?.textContent ?? '';
}

describe('question types', () => {
  const onePage = (f: RunnerField): RunnerPage[] => [{ id: 'p', identity: 'p', title: 'One page', displayOrder: 1, fields: [f] }];

  it('single choice: radios in a fieldset with a legend, each labelled', async () => {
    const root = start(fake({ pages: onePage(field('q', 'single', { required: true, options: [opt('x', 'Ex'), opt('y', 'Why')] }, 'Which?')) }).transport);
    await until(root, (r) => $(r, 'fieldset'));
    expect($(root, 'fieldset legend')?.textContent).toContain('Which?');
    const radios = $$(root, 'fieldset input[type=radio]');
    expect(radios.map((r) => labelOf(root, r))).toEqual(['Ex', 'Why']);
  });

  it('multiple choice: checkboxes whose answers build a list', async () => {
    const f = fake({ pages: onePage(field('q', 'multiple', { options: [opt('x'), opt('y'), opt('z')] }, 'All that apply')) });
    const root = start(f.transport);
    await until(root, (r) => $(r, 'fieldset'));
    const boxes = $$(root, 'input[type=checkbox]');
    expect(boxes).toHaveLength(3);
    tick(boxes[0]!);
    tick(boxes[2]!);
    await settle();
    next(root);
    await until(root, () => f.saved.length === 1);
    expect(f.saved[0]).toEqual({ q: ['x', 'z'] });
  });

  it('dropdown: a labelled select with a blank first choice', async () => {
    const f = fake({ pages: onePage(field('q', 'dropdown', { options: [opt('x', 'Ex'), opt('y', 'Why')] }, 'Pick')) });
    const root = start(f.transport);
    await until(root, (r) => $(r, 'select'));
    const select = $(root, 'select') as HTMLSelectElement;
    expect(labelOf(root, select)).toBe('Pick');
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual(['Choose…', 'Ex', 'Why']);
    select.value = 'y';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    next(root);
    await until(root, () => f.saved.length === 1);
    expect(f.saved[0]).toEqual({ q: 'y' });
  });

  it('yes/no: two radios (the options staff gave, else Yes and No in the participant language)', async () => {
    const root = start(fake({ pages: onePage(field('q', 'yes_no', {}, 'Smoker?')) }).transport, { language: 'es' });
    await until(root, (r) => $(r, 'fieldset'));
    expect($$(root, 'input[type=radio]').map((r) => labelOf(root, r))).toEqual(['Sí', 'No']);
  });

  it.each([
    ['text', 'text', undefined],
    ['number', 'text', 'numeric'],
    ['email', 'email', 'email'],
    ['phone', 'tel', 'tel'],
    ['zip', 'text', 'numeric'],
    ['date', 'date', 'text'],
    ['dob', 'date', 'text'],
  ] as const)('%s: a labelled input of type %s', async (kind, inputType, mode) => {
    const root = start(fake({ pages: onePage(field('q', kind, { required: true, helperText: 'A hint' }, `The ${kind}`)) }).transport);
    await until(root, (r) => $(r, 'input'));
    const input = $(root, 'input') as HTMLInputElement;
    expect(input.type).toBe(inputType);
    if (mode && mode !== 'text') expect(input.getAttribute('inputmode')).toBe(mode);
    expect(labelOf(root, input)).toContain(`The ${kind}`);
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(`${input.id}-help`);
  });

  it('zip on a channel whose region is Canada: typed as text, a US ZIP code refused with the postal-code message', async () => {
    const f = fake({ survey: { ...SURVEY, region: 'CA' }, pages: onePage(field('q', 'zip', { required: true }, 'Your postal code')) });
    const root = start(f.transport);
    await until(root, (r) => $(r, 'input'));
    const input = $(root, 'input') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('text');
    type(input, '12345');
    await settle();
    next(root);
    await until(root, (r) => $(r, 'input[aria-invalid=true]'));
    expect(root.textContent).toContain('Must be a valid postal code.');
    expect(f.saved).toEqual([]);
    type($(root, 'input'), 'M5V 3L9');
    await settle();
    next(root);
    await until(root, () => f.saved.length === 1);
    expect(f.saved[0]).toEqual({ q: 'M5V 3L9' });
  });

  it('placeholder: renders nothing', async () => {
    const pages = onePage(field('q', 'placeholder'));
    pages[0]!.fields.push({ ...field('t', 'text', {}, 'Visible'), displayOrder: 2 });
    const root = start(fake({ pages }).transport);
    await until(root, (r) => $(r, 'input'));
    expect($$(root, 'input, select, fieldset')).toHaveLength(1);
    expect(root.textContent).not.toContain('placeholder');
  });

  it('shows question and option texts in the participant language', async () => {
    const pages = onePage(field('q', 'single', { options: [opt('a', 'Alpha', { es: 'Alfa' })], translations: { es: { title: '¿Cuál?' } } }, 'Which?'));
    const root = start(fake({ pages }).transport, { language: 'es-MX' });
    await until(root, (r) => $(r, 'fieldset'));
    expect($(root, 'legend')?.textContent).toContain('¿Cuál?');
    expect(labelOf(root, $(root, 'input')!)).toBe('Alfa');
    expect($(root, 'section')?.getAttribute('lang')).toBe('es');
  });

  it("heads each page with its title in the participant language, else the default language's", async () => {
    const pages: RunnerPage[] = [
      {
        id: 'p1',
        identity: 'p1',
        title: 'About you',
        translations: { es: { title: 'Sobre usted' } },
        displayOrder: 1,
        fields: [field('q1', 'text', {}, 'Name')],
      },
      // A blank translation is none; another language's is not the participant's.
      {
        id: 'p2',
        identity: 'p2',
        title: 'More',
        translations: { es: { title: '' }, fr: { title: 'Plus' } },
        displayOrder: 2,
        fields: [field('q2', 'text', {}, 'Anything else?')],
      },
    ];
    const spanish = start(fake({ pages }).transport, { language: 'es' });
    await until(spanish, (r) => $(r, 'input'));
    expect($(spanish, 'h2')?.textContent).toBe('Sobre usted');
    next(spanish);
    await until(spanish, (r) => $(r, 'h2')?.textContent === 'More');

    const english = start(fake({ pages }).transport, { language: 'en' });
    await until(english, (r) => $(r, 'input'));
    expect($(english, 'h2')?.textContent).toBe('About you');
  });
});

describe('the run', () => {
  it('validates inline in the participant language and announces the error', async () => {
    const f = fake();
    const root = start(f.transport, { browserLanguages: ['es-ES', 'en'] });
    await until(root, (r) => $(r, 'fieldset'));
    next(root);
    await until(root, (r) => $(r, '.tw-error')?.textContent);
    const error = $(root, '.tw-error')!;
    expect(error.textContent).toBe('Este campo es obligatorio.');
    expect(error.getAttribute('aria-live')).toBe('assertive');
    expect($(root, 'fieldset')?.getAttribute('aria-invalid')).toBe('true');
    expect(f.calls).not.toContain('saveAnswers');
  });

  it('puts the focus on the first field in error once a page is refused, and leaves it where it is while errors are fixed', async () => {
    const pages: RunnerPage[] = [
      {
        id: 'p1',
        identity: 'p1',
        title: 'About you',
        displayOrder: 1,
        fields: [
          field('q0', 'text', {}, 'Optional'),
          field('q1', 'text', { required: true }, 'Name'),
          field('q2', 'single', { required: true, options: [opt('a'), opt('b')] }, 'Pick one'),
          field('q3', 'email', { required: true }, 'Email'),
        ],
      },
    ];
    const f = fake({ pages });
    const root = start(f.transport);
    await until(root, (r) => heading(r) === 'About you');
    next(root);
    await until(root, (r) => $$(r, '.tw-error').filter((e) => e.textContent).length === 3);
    expect(root.activeElement).toBe($(root, '#tw-f-q1'));
    // Fixing the second field while the first still is in error leaves the focus there.
    const email = $(root, '#tw-f-q3') as HTMLInputElement;
    email.focus();
    type(email, 'ann@example.com');
    await until(root, (r) => $$(r, '.tw-error').filter((e) => e.textContent).length === 2);
    await settle();
    expect(root.activeElement).toBe(email);
    type($(root, '#tw-f-q1'), 'Ann');
    await settle();
    // A refused choice question is focused by its first option (a fieldset takes no focus).
    next(root);
    // One error was already on screen before this Next: the focus moving shows its answer came.
    await until(root, (r) => $$(r, '.tw-error').filter((e) => e.textContent).length === 1 && r.activeElement !== email);
    expect(root.activeElement).toBe($(root, 'input[value=a]'));
    expect(f.calls).not.toContain('saveAnswers');
  });

  it('moves page by page with the title focused, the progress bar following, and Back', async () => {
    const f = fake();
    const root = start(f.transport);
    await until(root, (r) => heading(r) === 'About you');
    const bar = $(root, '[role=progressbar]')!;
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect($(root, '.tw-back')).toBeNull();
    tick($(root, 'input[value=a]'));
    await settle();
    next(root);
    await until(root, (r) => heading(r) === 'More');
    expect($(root, '[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('50');
    expect(($(root, '.tw-bar') as HTMLElement).style.width).toBe('50%');
    expect(root.activeElement).toBe($(root, 'h2'));
    ($(root, '.tw-back') as HTMLButtonElement).click();
    await until(root, (r) => heading(r) === 'About you');
    expect(($(root, 'input[value=a]') as HTMLInputElement).checked).toBe(true);
  });

  it('hides Back when the screener says so', async () => {
    const root = start(fake({ survey: { ...SURVEY, styles: { backButton: { isShown: false } } } }).transport);
    await chooseOnFirstPage(root, 'a');
    next(root);
    await until(root, (r) => heading(r) === 'More');
    expect($(root, '.tw-back')).toBeNull();
  });

  it('applies the screener colours as custom properties on the host', () => {
    expect(themeCss(SURVEY.styles)).toBe(
      ':host{--tw-progressBar-background:#CCCCCC!important;--tw-progressBar-color:#123456!important;--tw-nextButton-active:#ABABAB!important;}',
    );
    expect(themeCss({ nextButton: { hover: 'red;}body{x:y' } })).toBe(':host{}');
  });

  it('is busy while saving, and a double click on Next sends one request', async () => {
    const f = fake();
    const root = start(f.transport);
    await chooseOnFirstPage(root, 'a');
    f.fail.add('hold:saveAnswers');
    next(root);
    next(root);
    await until(root, (r) => $(r, 'section')?.getAttribute('aria-busy') === 'true');
    expect(($(root, 'button[type=submit]') as HTMLButtonElement).disabled).toBe(true);
    f.hold.release?.();
    await until(root, (r) => heading(r) === 'More');
    expect(f.calls.filter((c) => c === 'saveAnswers')).toHaveLength(1);
  });

  it('shows a failure with a Retry that works', async () => {
    const f = fake();
    f.fail.add('firstPage');
    const root = start(f.transport);
    await until(root, (r) => $(r, '[role=alert]'));
    expect($(root, '[role=alert] .tw-message')?.textContent).toBe('Something went wrong. Please check your connection and try again.');
    ($(root, '[role=alert] button') as HTMLButtonElement).click();
    await until(root, (r) => heading(r) === 'About you');
    // The submission is made when the first page is sent: its failure, retried, carries on.
    f.fail.add('createSubmission');
    tick($(root, 'input[value=a]'));
    await settle();
    next(root);
    await until(root, (r) => $(r, '[role=alert]'));
    ($(root, '[role=alert] button') as HTMLButtonElement).click();
    await until(root, (r) => heading(r) === 'More');
    expect(f.calls.filter((c) => c === 'createSubmission')).toHaveLength(2);
    expect(f.saved).toEqual([{ q1: 'a' }]);
  });

  it('an unknown channel shows the friendly message and logs one console error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const f = fake();
    f.transport.loadSurvey = async () => {
      throw new HttpError(404);
    };
    const root = start(f.transport);
    await until(root, (r) => $(r, '[role=alert]'));
    expect($(root, '[role=alert] p')?.textContent).toBe('This questionnaire could not be loaded. Please let the website owner know.');
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]?.[0])).toBe('[trial widget] media channel 1: Error: HTTP 404');
  });

  it("an embed problem the server names is the console's one line, and the participant's message stays calm", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const f = fake();
    const detail = "This page's origin https://wrong.example may not run media channel 1: its domain is partner.example.";
    f.transport.loadSurvey = async () => {
      throw new HttpError(403, { code: 'origin-not-allowed', detail });
    };
    const root = start(f.transport);
    await until(root, (r) => $(r, '[role=alert]'));
    expect($(root, '[role=alert] p')?.textContent).toBe('This questionnaire could not be loaded. Please let the website owner know.');
    expect(errors.mock.calls.map((c) => c.join(' '))).toEqual([`[trial widget] ${detail}`]);
  });

  it('a channel switched off shows its notActive message and names the problem in the console', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const f = fake();
    f.transport.loadSurvey = async () => {
      throw new OutcomeReached({
        outcome: 'notActive',
        messages: { contactForm: '<p>Closed.</p>' },
        problem: { code: 'channel-inactive', detail: 'Media channel 1 is switched off.' },
      });
    };
    const root = start(f.transport);
    await until(root, (r) => $(r, '[data-outcome=notActive]'));
    expect($(root, '.tw-html')?.textContent).toBe('Closed.');
    expect(errors.mock.calls.map((c) => c.join(' '))).toEqual(['[trial widget] Media channel 1 is switched off.']);
  });
});

describe('a page that cannot end the run', () => {
  // p1 can disqualify (the server gives it no following page); p2 cannot end the run: the server's
  // document of it carries p3, shown at once on Next while p2's save is confirmed behind it.
  const p3: RunnerPage = { id: 'p3', identity: 'p3', title: 'Last', displayOrder: 3, fields: [field('q3', 'text', {}, 'Last words?')] };
  const p2: RunnerPage = {
    id: 'p2',
    identity: 'p2',
    title: 'More',
    displayOrder: 2,
    fields: [field('q2', 'text', { required: true }, 'Anything else?')],
    next: p3,
  };
  const p1: RunnerPage = {
    id: 'p1',
    identity: 'p1',
    title: 'About you',
    displayOrder: 1,
    fields: [field('q1', 'single', { required: true, options: [opt('a', 'Alpha'), opt('b', 'Beta')] }, 'Pick one')],
  };
  const SURVEY3 = { ...SURVEY, containerCount: 3 };
  const eventually = (check: () => unknown) =>
    vi.waitFor(() => {
      if (!check()) throw new Error('not yet');
    });

  /** The fake API over the three pages, each save held until the test answers it (`answer`), with the storage the snapshots go to. */
  function heldSaves() {
    const f = fake({ pages: [p1, p2, p3], survey: SURVEY3 });
    const answers: { entryId: string; answers: Answers; reply: (result: SaveResult) => void }[] = [];
    let token: string | null = null;
    const transport: WidgetTransport = {
      ...f.transport,
      async createSubmission() {
        token = 'tok';
        return { submissionId: 's1', entryId: 'p1:0' };
      },
      credentials: () => token,
      resume: () => undefined,
      saveAnswers: (entryId, given) => new Promise<SaveResult>((reply) => answers.push({ entryId, answers: given, reply })),
    };
    const pageAfter = (entryId: string): SaveResult => {
      const index = [p1, p2, p3].findIndex((p) => entryId.startsWith(`${p.identity}:`));
      const following = [p1, p2, p3][index + 1];
      return {
        ok: true,
        nextContainerIdentity: following?.identity ?? null,
        nextContainerEntryId: following ? `${following.identity}:${index + 1}` : null,
        nextPage: following ?? null,
      };
    };
    return { f, transport, answers, pageAfter };
  }

  /** The first page sent with "a" and its save answered: on "More", with "fine" typed there. */
  async function typedOnMore(root: ShadowRoot, { answers, pageAfter }: Pick<ReturnType<typeof heldSaves>, 'answers' | 'pageAfter'>) {
    await chooseOnFirstPage(root, 'a');
    next(root);
    await eventually(() => answers.length === 1);
    answers[0]!.reply(pageAfter(answers[0]!.entryId));
    await until(root, (r) => heading(r) === 'More');
    type($(root, 'input'), 'fine');
    await settle();
  }

  it('shows the next page at once, confirms the save behind it and keeps the place a reload resumes until then', async () => {
    const { answers, transport, pageAfter } = heldSaves();
    const { store, storage } = memoryStorage();
    const root = start(transport, { storage });
    await chooseOnFirstPage(root, 'a');
    // The first page can end the run: it waits for the server.
    next(root);
    await eventually(() => answers.length === 1);
    await settle();
    expect(heading(root)).toBe('About you');
    answers[0]!.reply(pageAfter(answers[0]!.entryId));
    await until(root, (r) => heading(r) === 'More');
    expect($(root, '[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('33');
    type($(root, 'input'), 'fine');
    await settle();
    next(root);
    // The last page shows before the save of "More" is answered; the bar moves with it.
    await until(root, (r) => heading(r) === 'Last');
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatchObject({ entryId: 'p2:1', answers: { q2: 'fine' } });
    expect($(root, '[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('66');
    expect($(root, 'section')?.getAttribute('aria-busy')).toBe('false');
    // A reload now resumes on "More", the place the server holds, not on the page shown ahead.
    const unconfirmed = JSON.parse([...store.values()][0]!) as RunnerSnapshot;
    expect(unconfirmed.history.map((v) => v.page)).toEqual(['p1', 'p2']);
    expect(unconfirmed.progress).toBe(1);
    // A Next on the page shown ahead waits for the save before it: nothing is sent yet.
    type($(root, 'input'), 'bye');
    await settle();
    next(root);
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]!.reply(pageAfter('p2:1'));
    await eventually(() => answers.length === 3);
    expect(answers[2]).toMatchObject({ entryId: 'p3:2', answers: { q3: 'bye' } });
    const confirmed = JSON.parse([...store.values()][0]!) as RunnerSnapshot;
    expect(confirmed.history).toEqual([
      { page: 'p1', entryId: 'p1:0' },
      { page: 'p2', entryId: 'p2:1' },
      { page: 'p3', entryId: 'p3:2' },
    ]);
    expect(confirmed.progress).toBe(2);
  });

  it('comes back to the page with its errors when the save shown ahead of is refused, keeping what was typed on both pages', async () => {
    const { answers, transport, pageAfter } = heldSaves();
    const root = start(transport);
    await typedOnMore(root, { answers, pageAfter });
    next(root);
    await until(root, (r) => heading(r) === 'Last');
    type($(root, 'input'), 'typed ahead');
    await settle();
    answers[1]!.reply({ ok: false, errors: { q2: 'The server refuses this.' } });
    await until(root, (r) => heading(r) === 'More');
    await until(root, (r) => $$(r, '.tw-error').some((e) => e.textContent === 'The server refuses this.'));
    expect(($(root, 'input') as HTMLInputElement).value).toBe('fine');
    expect($(root, '[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('33');
    // Sent again: the page after shows at once again, with what was typed there.
    type($(root, 'input'), 'better');
    await settle();
    next(root);
    await until(root, (r) => heading(r) === 'Last');
    expect(($(root, 'input') as HTMLInputElement).value).toBe('typed ahead');
    expect(answers[2]).toMatchObject({ entryId: 'p2:1', answers: { q2: 'better' } });
  });

  it('comes back to the page and sends it again, waiting, when the save shown ahead of is not answered', async () => {
    const { answers, transport, pageAfter } = heldSaves();
    const failing: WidgetTransport = {
      ...transport,
      saveAnswers: (entryId, given) =>
        answers.length === 1
          ? Promise.reject(new Error('offline')).finally(() => answers.push({ entryId, answers: given, reply: () => undefined }))
          : transport.saveAnswers(entryId, given),
    };
    const root = start(failing);
    await typedOnMore(root, { answers, pageAfter });
    next(root);
    // Shown ahead, then back on "More", busy while it is sent again.
    await eventually(() => answers.length === 3);
    expect(heading(root)).toBe('More');
    expect($(root, 'section')?.getAttribute('aria-busy')).toBe('true');
    answers[2]!.reply(pageAfter('p2:1'));
    await until(root, (r) => heading(r) === 'Last');
  });
});

describe('outcome screens and the qualified steps', () => {
  it('notQualified shows the screener message (sanitized HTML from the server)', async () => {
    const root = start(
      fake({ qualification: { isQualified: false, outcome: 'notQualified', messages: { contactForm: '<p><b>Sorry</b>, not this time.</p>', consent: null } } })
        .transport,
    );
    await toEnd(root);
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    expect(heading(root)).toBe('Thank you for your time.');
    expect($(root, '.tw-html b')?.textContent).toBe('Sorry');
    expect($(root, '[role=progressbar]')).toBeNull();
  });

  it('notActive from the start shows its message', async () => {
    const f = fake();
    f.transport.loadSurvey = async () => {
      throw new OutcomeReached({ outcome: 'notActive', messages: { contactForm: 'This study is closed.' } });
    };
    const root = start(f.transport, { language: 'es' });
    await until(root, (r) => $(r, '[data-outcome=notActive]'));
    expect(heading(root)).toBe('Este cuestionario no está disponible en este momento.');
    expect($(root, '.tw-html')?.textContent).toBe('This study is closed.');
  });

  it('notActive from the start with a submission for its lead: the lead form, as midway; sent through that submission, the thanks; nothing kept to resume', async () => {
    const f = fake({
      qualification: { isQualified: false, outcome: 'notActive', messages: { contactForm: '<p>Closed for now.</p>', consent: 'May we write?' } },
    });
    const sent: [string, unknown][] = [];
    const storage = memoryStorage();
    const transport = {
      ...f.transport,
      loadSurvey: async () => {
        throw new OutcomeReached({ outcome: 'notActive', messages: { contactForm: '<p>Closed for now.</p>' }, submissionId: 'lead-7' });
      },
      leadFields: async (id: string) => {
        sent.push(['fields', id]);
        return {
          fields: [{ id: 'c1', name: 'first_name', label: 'First name', fieldType: 'text' as const, required: true }],
          messages: { contactForm: '<p>Closed for now.</p>', consent: 'May we write?' },
        };
      },
      submitLead: async (id: string, lead: unknown) => {
        sent.push(['lead', id]);
        sent.push(['values', lead]);
        return { ok: true as const, messages: { contactForm: 'Thanks, kept.' } };
      },
    } as WidgetTransport;
    const root = start(transport, { storage: storage.storage });
    await until(root, (r) => $(r, 'input[type=checkbox]'));
    expect($(root, '.tw-html')?.textContent).toBe('Closed for now.');
    expect(labelOf(root, $(root, 'input[type=checkbox]')!)).toContain('May we write?');
    expect($(root, 'button.tw-back')).not.toBeNull();
    type($(root, '#tw-c-c1'), 'Noor');
    tick($(root, 'input[type=checkbox]'));
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=notActive]'));
    expect(root.textContent).toContain('Thanks, kept.');
    expect(sent).toEqual([
      ['fields', 'lead-7'],
      ['lead', 'lead-7'],
      ['values', expect.objectContaining({ values: { first_name: 'Noor' }, acceptTerms: true })],
    ]);
    // Not a run of the widget's own: nothing stored to resume.
    expect(storage.store.size).toBe(0);
  });

  it('qualified: ZIP, the nearest sites with distances, the contact form, consent, completed', async () => {
    const f = fake();
    const root = start(f.transport);
    await toEnd(root);
    await until(root, (r) => heading(r) === 'Find a study site near you');
    expect($(root, '.tw-html')?.textContent).toBe('You may qualify.');
    const zip = $(root, '#tw-zip') as HTMLInputElement;
    expect(labelOf(root, zip)).toContain('ZIP code');
    type(zip, '12');
    await refusedThenFixed(root, 'Must be a valid postal code.', '#tw-zip', (field) => type(field, '62701'));
    await until(root, (r) => heading(r) === 'Choose a study site');
    const sites = $$(root, 'input[name=tw-site]');
    expect(sites.map((s) => labelOf(root, s))).toEqual(['Downtown Clinic1 Main St, Springfield, IL, 627011.2 miles away', 'North Clinic12 miles away']);
    expect((sites[0] as HTMLInputElement).checked).toBe(true);
    tick(sites[1]!);
    await settle();
    next(root);
    await until(root, (r) => heading(r) === 'Your contact details');
    expect($(root, '.tw-html')?.textContent).toBe('Tell us how to reach you.');
    expect(root.activeElement).toBe($(root, 'h2'));
    await refusedThenFixed(root, 'This field is required.', '#tw-c-c1', (field) => type(field, 'Ann'));
    await until(root, (r) => heading(r) === 'Consent');
    expect($(root, '.tw-html em')?.textContent).toBe('We keep your data safe.');
    await refusedThenFixed(root, 'You must accept the terms and conditions in order to proceed.', 'input[type=checkbox]', tick);
    await until(root, (r) => $(r, '[data-outcome=completed]'));
    expect($(root, '.tw-html strong')?.textContent).toBe('Thank you!');
    expect(f.calls).toContain(
      `submitContact:${JSON.stringify({ engagementSiteLocationId: 'esl2', values: { first_name: 'Ann', phone: '' }, acceptTerms: true })}`,
    );
  });

  it('offers the separate SMS consent only with its text, unticked, and sends smsConsent only when ticked', async () => {
    const SMS = 'You may text me at this number about this study. Reply STOP to opt out.';
    const toConsent = async (f: ReturnType<typeof fake>) => {
      const root = start(f.transport);
      await toEnd(root);
      await until(root, (r) => heading(r) === 'Find a study site near you');
      type($(root, '#tw-zip'), '62701');
      next(root);
      await until(root, (r) => heading(r) === 'Choose a study site');
      next(root);
      await until(root, (r) => heading(r) === 'Your contact details');
      type($(root, '#tw-c-c1'), 'Ann');
      next(root);
      await until(root, (r) => heading(r) === 'Consent');
      return root;
    };
    const boxes = (root: ShadowRoot) => $$(root, 'input[type=checkbox]') as HTMLInputElement[];
    const sent = (f: ReturnType<typeof fake>) =>
      f.calls.filter((c) => c.startsWith('submitContact:')).map((c) => JSON.parse(c.slice('submitContact:'.length)) as Record<string, unknown>);

    // Without the text: the one consent box, and no smsConsent sent.
    const plain = fake();
    let root = await toConsent(plain);
    expect(boxes(root)).toHaveLength(1);
    expect(root.textContent).not.toContain('Reply STOP');
    tick(boxes(root)[0]!);
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=completed]'));
    expect(sent(plain)).toEqual([{ engagementSiteLocationId: 'esl1', values: { first_name: 'Ann', phone: '' }, acceptTerms: true }]);

    // With it, left unticked: offered, not sent.
    const unticked = fake({ sms: SMS });
    root = await toConsent(unticked);
    expect(boxes(root)).toHaveLength(2);
    expect(boxes(root)[1]!.checked).toBe(false);
    expect(labelOf(root, boxes(root)[1]!)).toBe(SMS);
    tick(boxes(root)[0]!);
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=completed]'));
    expect(sent(unticked)[0]).not.toHaveProperty('smsConsent');

    // Ticked: sent as smsConsent: true beside the contact.
    const ticked = fake({ sms: SMS });
    root = await toConsent(ticked);
    tick(boxes(root)[1]!);
    await settle();
    // The SMS box is no consent to the terms: those are still asked for.
    next(root);
    await until(root, (r) => r.textContent!.includes('You must accept the terms and conditions in order to proceed.'));
    expect(sent(ticked)).toEqual([]);
    tick(boxes(root)[0]!);
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=completed]'));
    expect(sent(ticked)).toEqual([{ engagementSiteLocationId: 'esl1', values: { first_name: 'Ann', phone: '' }, acceptTerms: true, smsConsent: true }]);
  });

  it('outside the US: a country, then a postal code or town there, and the distances in kilometres', async () => {
    const { f, asked } = fakeAbroad();
    const root = start(f.transport);
    await toEnd(root);
    await until(root, (r) => heading(r) === 'Find a study site near you');
    const country = $(root, '#tw-country') as HTMLSelectElement;
    expect(labelOf(root, country)).toBe('Country');
    expect([...country.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'United States'],
      ['CA', 'Canada'],
    ]);
    country.value = 'CA';
    country.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    const place = $(root, '#tw-zip') as HTMLInputElement;
    expect(labelOf(root, place)).toContain('Postal code or town');
    type(place, 'Toronto');
    await settle();
    next(root);
    await until(root, (r) => heading(r) === 'Choose a study site');
    expect(asked).toEqual([['Toronto', 'CA']]);
    expect(labelOf(root, $(root, 'input[name=tw-site]')!)).toBe('Toronto siteToronto1.9 km away');
  });

  it('asks for a ZIP code only, without a country, when every site is in the US', async () => {
    const root = start(fake().transport);
    await toEnd(root);
    await until(root, (r) => heading(r) === 'Find a study site near you');
    expect($(root, '#tw-country')).toBeNull();
  });

  it('tells the browser which part of a name a contact field holds, and the other kinds by type', async () => {
    const text = (id: string, name: string): RunnerContactField => ({ id, name, label: name, fieldType: 'text', required: false });
    const contactFields = [
      text('c1', 'first_name'),
      text('c2', 'givenname'),
      text('c3', 'last_name'),
      text('c4', 'family_name'),
      text('c5', 'surname'),
      text('c6', 'nickname'),
      text('c7', 'first_name_of_partner'),
      { id: 'c8', name: 'email', label: 'Email', fieldType: 'email', required: false },
      { id: 'c9', name: 'phone', label: 'Phone', fieldType: 'phone', required: false },
      { id: 'c10', name: 'zip_code', label: 'ZIP code', fieldType: 'zip', required: false },
    ] satisfies RunnerContactField[];
    const root = start(fake({ contactFields, sites: [{ id: 'esl1', name: 'Clinic', distanceMiles: 3 }] }).transport);
    await toEnd(root);
    await until(root, (r) => $(r, '#tw-zip'));
    await siteNear62701(root);
    const hints = Object.fromEntries($$(root, 'input').map((i) => [i.id, i.getAttribute('autocomplete')]));
    expect(hints).toEqual({
      'tw-c-c1': 'given-name',
      'tw-c-c2': 'given-name',
      'tw-c-c3': 'family-name',
      'tw-c-c4': 'family-name',
      'tw-c-c5': 'family-name',
      'tw-c-c6': null,
      'tw-c-c7': null,
      'tw-c-c8': 'email',
      'tw-c-c9': 'tel',
      'tw-c-c10': 'postal-code',
    });
  });

  it.each([
    ['en', ['Less than 0.1 miles away', '1 mile away', '1.2 miles away', '12 miles away']],
    ['es', ['a menos de 0.1 millas', 'a 1 milla', 'a 1.2 millas', 'a 12 millas']],
  ] as const)('words each site’s distance in %s, one mile and under a tenth of a mile too', async (language, wording) => {
    const sites = [0.02, 1, 1.24, 12].map((distanceMiles, i) => ({ id: `s${i}`, name: `Site ${i}`, distanceMiles }));
    const root = start(fake({ sites }).transport, { language });
    await toEnd(root);
    await until(root, (r) => $(r, '#tw-zip'));
    type($(root, '#tw-zip'), '62701');
    await settle();
    next(root);
    await until(root, (r) => $(r, '.tw-distance'));
    expect($$(root, '.tw-distance').map((d) => d.textContent)).toEqual(wording);
  });

  it('preview stores nothing and ends qualified', async () => {
    const f = fake();
    const root = start(previewTransport(f.transport, SURVEY), { preview: true });
    await toEnd(root);
    await until(root, (r) => $(r, '[data-outcome=qualified]'));
    expect($(root, '.tw-preview')?.textContent).toBe('Preview: nothing is stored.');
    expect(f.calls.filter((c) => ['createSubmission', 'createEntry', 'saveAnswers', 'qualification', 'sites'].includes(c))).toEqual([]);
  });

  it("preview at a lead's outcome shows its form (message, fields, consent as the box's label, No thanks) and thanks on Submit", async () => {
    const f = fake();
    const sent: unknown[] = [];
    const leads: LeadPreviewApi = {
      previewForm: async () => ({
        fields: [{ id: 'c1', name: 'email', label: 'E-mail', fieldType: 'email', required: true }],
        messages: { contactForm: '<p>No study site near you yet.</p>', consent: 'Tell me when one opens.' },
      }),
      async preview(request) {
        sent.push(request);
        return { ok: true, messages: { contactForm: '<p>Thank you. Your details are kept and we may contact you.</p>', consent: '' } };
      },
    };
    const root = start(previewTransport(f.transport, SURVEY, { outcome: 'noTrialSites', leads, request: { screenerId: 2, oFormId: 1, language: 'en' } }), {
      preview: true,
    });
    await toEnd(root);
    await until(root, (r) => $(r, 'form input[type=email]'));
    expect($(root, '.tw-preview')).not.toBeNull();
    expect($(root, 'form .tw-html')?.textContent).toBe('No study site near you yet.');
    expect(labelOf(root, $(root, 'form input[type=checkbox]') as HTMLElement)).toContain('Tell me when one opens.');
    expect($(root, 'form button.tw-back')?.textContent).toBe('No thanks');
    type($(root, 'input[type=email]'), 'ann@example.com');
    tick($(root, 'form input[type=checkbox]')!);
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=noTrialSites]'));
    expect($(root, '[data-outcome=noTrialSites] .tw-html')?.textContent).toBe('Thank you. Your details are kept and we may contact you.');
    expect(sent).toEqual([
      { screenerId: 2, oFormId: 1, language: 'en', kind: 'noTrialSites', values: { email: 'ann@example.com' }, acceptTerms: true, zip: null },
    ]);
    expect(
      f.calls.filter(
        (c) => ['createSubmission', 'createEntry', 'saveAnswers', 'qualification', 'sites', 'contactFields'].includes(c) || c.startsWith('submit'),
      ),
    ).toEqual([]);
  });
});

/** A qualified run with sites in the US and Canada whose site search finds one in Toronto, in kilometres; `asked` keeps each search's place and country. */
function fakeAbroad() {
  const f = fake({ qualification: { isQualified: true, outcome: 'qualified', messages: {}, siteCountries: ['US', 'CA'] } });
  const asked: [string, string | undefined][] = [];
  f.transport.sites = async (_s, zip, country) => {
    asked.push([zip, country]);
    return {
      ok: true,
      outcome: 'qualified',
      sites: [{ id: 'esl9', name: 'Toronto site', city: 'Toronto', distanceMiles: 1.2, distance: 1.9, distanceUnit: 'km' }],
    };
  };
  return { f, asked };
}

/** A transport that answers a token with the submission and takes it back on a resume, giving back `entryAnswers` for a page entry. */
function resumable(f = fake(), entryAnswers: Answers = { q1: 'a' }) {
  let token: string | null = null;
  return {
    f,
    transport: {
      ...f.transport,
      async createSubmission() {
        f.calls.push('createSubmission');
        token = 'tok';
        return { submissionId: 's1' };
      },
      credentials: () => token,
      resume: (_id: string, t: string) => void (token = t),
      entryAnswers: async () => entryAnswers,
    } as WidgetTransport,
  };
}

describe('resuming after a reload', () => {
  it('keeps the submission in sessionStorage per channel and resumes on the same page', async () => {
    const { store, storage } = memoryStorage();
    const root = start(resumable(fake(), { q2: 'kept' }).transport, { storage });
    await chooseOnFirstPage(root, 'a');
    next(root);
    await until(root, (r) => heading(r) === 'More');
    expect([...store.keys()]).toEqual(['trial-widget:1:2']);
    mounted.splice(0).forEach((w) => w.unmount());

    const second = fake();
    const again = start({ ...second.transport, credentials: () => 'tok', resume: () => {}, entryAnswers: async () => ({ q2: 'kept' }) }, { storage });
    await until(again, (r) => heading(r) === 'More');
    expect(($(again, 'input') as HTMLInputElement).value).toBe('kept');
    expect(second.calls).not.toContain('createSubmission');
  });

  it('starts afresh when what is stored under its key is not a run (another script, an older widget)', async () => {
    for (const stored of ['not json', 'null', '"a run"', '[]', '{"identity":"S","history":"p1","step":"page"}', '{"history":[],"step":"page"}']) {
      const storage = { getItem: () => stored, setItem: () => undefined, removeItem: () => undefined } as unknown as Storage;
      const run = fake();
      const root = start(run.transport, { storage });
      await until(root, (r) => heading(r) === 'About you');
      expect($$(root, '.tw-back'), stored).toEqual([]);
      expect(run.calls, stored).toEqual(['loadSurvey', 'firstPage']);
      mounted.splice(0).forEach((w) => w.unmount());
    }
  });
});

describe('the stored run, one per mount', () => {
  const unmountAll = () => mounted.splice(0).forEach((w) => w.unmount());

  it('keeps nothing of a first page answered and not sent (no submission yet): what is typed lives in memory only', async () => {
    const { store, storage } = memoryStorage();
    const first = resumable();
    const root = start(first.transport, { storage });
    await chooseOnFirstPage(root, 'b');
    expect([...store.values()]).toEqual([]);
    expect(first.f.calls).not.toContain('createSubmission');
    unmountAll();

    const second = resumable();
    const again = start(second.transport, { storage });
    await until(again, (r) => heading(r) === 'About you');
    expect(($(again, 'input[value=b]') as HTMLInputElement).checked).toBe(false);
    expect(second.f.calls).not.toContain('createSubmission');
  });

  it('gives two widgets of one channel and screener on a page keys of their own, in mount order, freed on unmount', async () => {
    const { store, storage } = memoryStorage();
    const a = start(resumable().transport, { storage });
    const b = start(resumable().transport, { storage });
    await until(a, (r) => heading(r) === 'About you');
    await until(b, (r) => heading(r) === 'About you');
    tick($(a, 'input[value=a]'));
    tick($(b, 'input[value=b]'));
    await settle();
    next(a);
    await until(a, (r) => heading(r) === 'More');
    expect([...store.keys()]).toEqual(['trial-widget:1:2']);
    next(b);
    await until(b, (r) => heading(r) === 'More');
    expect([...store.keys()].sort()).toEqual(['trial-widget:1:2', 'trial-widget:1:2:2']);
    unmountAll();

    // The same page again: each widget finds its own run.
    const a2 = start(resumable().transport, { storage });
    const b2 = start(resumable().transport, { storage });
    await until(a2, (r) => heading(r) === 'More');
    await until(b2, (r) => heading(r) === 'More');
    // A mount that names itself keeps its run under its name.
    const named = start(resumable().transport, { storage, mountKey: 'sidebar' });
    await chooseOnFirstPage(named, 'a');
    next(named);
    await until(named, (r) => heading(r) === 'More');
    expect([...store.keys()].sort()).toEqual(['trial-widget:1:2', 'trial-widget:1:2:2', 'trial-widget:1:2:sidebar']);
  });

  it('never writes contact details or the ZIP: a reload at the consent step asks the ZIP again (none in the survey) and shows the contact form again, empty', async () => {
    const { store, storage } = memoryStorage();
    const first = resumable();
    const root = start(first.transport, { storage });
    await toEnd(root);
    await until(root, (r) => heading(r) === 'Find a study site near you');
    await siteNear62701(root, 1);
    type($(root, '#tw-c-c1'), 'Zebediah');
    type($(root, '#tw-c-c2'), '217-555-0123');
    await settle();
    expect([...store.values()].join()).not.toMatch(/Zebediah|555/);
    next(root);
    await until(root, (r) => heading(r) === 'Consent');
    expect(JSON.parse(store.get('trial-widget:1:2')!)).toMatchObject({ step: 'consent', siteId: 'esl2' });
    expect([...store.values()].join()).not.toMatch(/Zebediah|555|62701/);
    unmountAll();

    const again = start(resumable().transport, { storage });
    await until(again, (r) => heading(r) === 'Find a study site near you');
    expect(($(again, '#tw-zip') as HTMLInputElement).value).toBe('');
    await siteNear62701(again, 1);
    expect(($(again, '#tw-c-c1') as HTMLInputElement).value).toBe('');
    expect([...store.values()].join()).not.toMatch(/Zebediah|555/);
  });
});

describe("a lead's optional ZIP where no site was searched", () => {
  const NOT_QUALIFIED: Qualification = {
    isQualified: false,
    outcome: 'notQualified',
    messages: { contactForm: '<p>Not this time.</p>', consent: 'May we contact you?' },
  };
  /** A run to notQualified whose lead form has `fields`; answers what each lead sent, and the server's refusal of `refuseZip`. */
  async function toLeadForm(fields: RunnerContactField[], refuseZip?: string, survey?: RunnerSurvey) {
    const f = fake({ qualification: NOT_QUALIFIED, survey });
    const sent: unknown[] = [];
    const transport = {
      ...f.transport,
      leadFields: async () => ({ fields, messages: NOT_QUALIFIED.messages }),
      submitLead: async (_s: string, lead: { zip?: string | null }) => {
        sent.push(lead);
        return lead.zip === refuseZip
          ? { ok: false as const, errors: { zip: 'Enter a valid US ZIP code.' } }
          : { ok: true as const, messages: { contactForm: 'Thanks.' } };
      },
    } as WidgetTransport;
    const root = start(transport);
    await toEnd(root);
    await until(root, (r) => $(r, 'input[type=checkbox]'));
    return { root, sent };
  }
  /** Fills the lead form's first name (and its ZIP when given), consents and sends it. */
  async function sendLead(root: ShadowRoot, firstName: string, zip?: string) {
    type($(root, '#tw-c-c1'), firstName);
    tick($(root, 'input[type=checkbox]'));
    if (zip !== undefined) type($(root, '#tw-zip'), zip);
    await settle();
    next(root);
  }
  const name: RunnerContactField = { id: 'c1', name: 'first_name', label: 'First name', fieldType: 'text', required: true };

  it("offers an optional ZIP code when the screener asks none, sends it as the lead's place and shows the server's refusal on it", async () => {
    const { root, sent } = await toLeadForm([name], '00000');
    const zip = $(root, '#tw-zip') as HTMLInputElement;
    expect(labelOf(root, zip)).toBe('ZIP code');
    expect(zip.getAttribute('aria-required')).toBeNull();
    await sendLead(root, 'Ann', '00000');
    await until(root, (r) => $(r, '#tw-zip[aria-invalid=true]'));
    expect(root.textContent).toContain('Enter a valid US ZIP code.');
    type($(root, '#tw-zip'), '62701');
    await settle();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    expect(sent).toEqual([
      expect.objectContaining({ values: { first_name: 'Ann' }, zip: '00000', country: null }),
      expect.objectContaining({ values: { first_name: 'Ann' }, zip: '62701', country: null }),
    ]);
  });

  it('on a channel whose region is Canada: a postal code, labelled so, typed as text and sent with the country', async () => {
    const { root, sent } = await toLeadForm([name], undefined, { ...SURVEY, region: 'CA' });
    const zip = $(root, '#tw-zip') as HTMLInputElement;
    expect(labelOf(root, zip)).toBe('Postal code');
    expect(zip.getAttribute('inputmode')).toBe('text');
    await sendLead(root, 'Tess', 'M5V 3L9');
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    expect(sent).toEqual([expect.objectContaining({ values: { first_name: 'Tess' }, zip: 'M5V 3L9', country: 'CA' })]);
  });

  it('sends no ZIP when it is left empty, and offers none when the screener asks a ZIP of its own', async () => {
    const { root, sent } = await toLeadForm([name]);
    await sendLead(root, 'Ann');
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    expect(sent).toEqual([expect.objectContaining({ zip: null })]);
    mounted.splice(0).forEach((w) => w.unmount());

    const own = await toLeadForm([name, { id: 'c9', name: 'zip_code', label: 'Your ZIP', fieldType: 'zip', required: false }]);
    expect($(own.root, '#tw-zip')).toBeNull();
    expect($(own.root, '#tw-c-c9')).not.toBeNull();
  });
});

describe('the site step after a reload', () => {
  it('keeps the country chosen (an ISO code, never the postal code or town typed) and asks for the place again there', async () => {
    const { store, storage } = memoryStorage();
    const abroad = () => {
      const { f, asked } = fakeAbroad();
      return { transport: resumable(f).transport, asked };
    };
    const first = abroad();
    const root = start(first.transport, { storage });
    await toEnd(root);
    await until(root, (r) => heading(r) === 'Find a study site near you');
    const country = $(root, '#tw-country') as HTMLSelectElement;
    country.value = 'CA';
    country.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    type($(root, '#tw-zip'), 'M5V 3L9');
    await settle();
    expect(JSON.parse(store.get('trial-widget:1:2')!)).toMatchObject({ step: 'zip', country: 'CA' });
    expect([...store.values()].join()).not.toMatch(/M5V|3L9/);
    mounted.splice(0).forEach((w) => w.unmount());

    const second = abroad();
    const again = start(second.transport, { storage });
    await until(again, (r) => heading(r) === 'Find a study site near you');
    expect(($(again, '#tw-country') as HTMLSelectElement).value).toBe('CA');
    const place = $(again, '#tw-zip') as HTMLInputElement;
    expect(labelOf(again, place)).toContain('Postal code or town');
    expect(place.value).toBe('');
    type(place, 'Toronto');
    await settle();
    next(again);
    await until(again, (r) => heading(r) === 'Choose a study site');
    expect(second.asked).toEqual([['Toronto', 'CA']]);
    // Chosen on the sites step, a reload still comes back to the site step in Canada.
    expect(JSON.parse(store.get('trial-widget:1:2')!)).toMatchObject({ step: 'sites', country: 'CA' });
    mounted.splice(0).forEach((w) => w.unmount());
    const third = start(abroad().transport, { storage });
    await until(third, (r) => heading(r) === 'Find a study site near you');
    expect(($(third, '#tw-country') as HTMLSelectElement).value).toBe('CA');
  });
});

describe('a later visit to the channel after an outcome', () => {
  const NOT_QUALIFIED: Qualification = { isQualified: false, outcome: 'notQualified', messages: { contactForm: '<p>Not this time.</p>', consent: null } };
  const KEY = 'trial-widget:1:2';
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  /** A run to notQualified in this tab, kept in the browser's own storages (no storage option). */
  async function finishRun() {
    const f = fake({ qualification: NOT_QUALIFIED });
    let token: string | null = null;
    const root = start(
      {
        ...f.transport,
        async createSubmission() {
          token = 'tok';
          return { submissionId: 's1' };
        },
        credentials: () => token,
        resume: () => {},
      },
      { storage: undefined },
    );
    await chooseOnFirstPage(root, 'a');
    // Nothing before the submission exists; then the run's place is the tab's alone, without its answers.
    expect(sessionStorage.getItem(KEY)).toBeNull();
    next(root);
    await until(root, (r) => heading(r) === 'More');
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toMatchObject({ submissionId: 's1', step: 'page', history: [{ page: 'p1' }, { page: 'p2' }] });
    expect(sessionStorage.getItem(KEY)).not.toContain('"a"');
    expect(localStorage.getItem(KEY)).toBeNull();
    next(root);
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    mounted.splice(0).forEach((w) => w.unmount());
  }

  /** The participant API as the widget's own transport calls it: the outcome as `outcome` answers, a fresh survey's start. */
  function api(outcome: { status: number; withinRetakeWindow?: boolean }) {
    const calls: string[] = [];
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const path = new URL(String(url)).pathname;
      // The token the call carries: in its body (a simple request), never in a header.
      const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { meta?: { submissionToken?: string } }).meta?.submissionToken : undefined;
      expect(new Headers(init?.headers).get('Survey-Submission-Token')).toBeNull();
      calls.push(`${path} ${sent ?? '-'}`);
      const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
      if (path === '/api/o-forms/o-form-submission-outcome/s1') {
        if (outcome.status !== 200) return json({ errors: [{ status: String(outcome.status), title: 'Not Found' }] }, outcome.status);
        return json({
          meta: {
            outcome: 'notQualified',
            isQualified: false,
            finishedAt: '2031-05-04T09:00:00.000Z',
            retakeWindowDays: outcome.withinRetakeWindow ? 30 : 0,
            retakeWindowEnds: outcome.withinRetakeWindow ? '2031-06-03T09:00:00.000Z' : null,
            withinRetakeWindow: outcome.withinRetakeWindow,
            messages: { contactForm: '<p>Not a match, as the server says.</p>', consent: null },
          },
        });
      }
      if (path === '/api/o-forms/participant-start') {
        const firstPage = { data: { type: 'o-form-containers', id: 'p1', attributes: { identity: 'p1', title: 'About you', displayOrder: 1 } }, included: [] };
        return json({
          meta: {
            runnable: true,
            oFormId: '10',
            oFormIdentity: 'S',
            title: 'Screen',
            containerCount: 2,
            languages: ['en'],
            styles: {},
            screenerId: '2',
            mediaChannelId: '1',
            retakeWindowDays: 30,
            firstPage,
          },
        });
      }
      return json({ errors: [{ status: '404', title: 'Not Found' }] }, 404);
    });
    return { calls, fetch: fetch as typeof globalThis.fetch };
  }

  /** The channel's widget mounted again, on the participant API `server`. */
  const visit = (server: ReturnType<typeof api>) =>
    start(undefined as unknown as WidgetTransport, { transport: undefined, fetch: server.fetch, storage: undefined });

  it('keeps only the submission and its token in localStorage once the outcome is reached, nothing in the tab', async () => {
    await finishRun();
    expect(sessionStorage.getItem(KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual({
      identity: 'S',
      submissionId: 's1',
      credentials: 'tok',
      language: 'en',
      history: [],
      progress: 2,
      step: 'finished',
    });
  });

  it("shows the outcome the server answers again in a new tab while the channel's retake window holds, without a fresh survey", async () => {
    await finishRun();
    sessionStorage.clear();
    const server = api({ status: 200, withinRetakeWindow: true });
    const root = visit(server);
    await until(root, (r) => $(r, '[data-outcome=notQualified]'));
    expect($(root, '.tw-html')?.textContent).toBe('Not a match, as the server says.');
    expect(server.calls).toEqual(['/api/o-forms/o-form-submission-outcome/s1 tok']);
    expect(localStorage.getItem(KEY)).not.toBeNull();
  });

  it('asks the server on a reload in the same tab too: a window of 0 (or one passed) drops the run and starts a fresh survey', async () => {
    await finishRun();
    const server = api({ status: 200, withinRetakeWindow: false });
    const root = visit(server);
    await until(root, (r) => heading(r) === 'About you');
    expect(server.calls[0]).toBe('/api/o-forms/o-form-submission-outcome/s1 tok');
    expect(server.calls[1]).toMatch(/^\/api\/o-forms\/participant-start /);
    expect($(root, '[data-outcome]')).toBeNull();
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('starts a fresh survey when the server no longer knows the run (404)', async () => {
    await finishRun();
    sessionStorage.clear();
    const server = api({ status: 404 });
    const root = visit(server);
    await until(root, (r) => heading(r) === 'About you');
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});
