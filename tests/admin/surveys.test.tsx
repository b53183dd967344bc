import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FieldConfiguration } from '@core/model/survey';
import { MISSING_TRANSLATION_TYPE, missingTranslationId, type MissingTranslation } from '@core/model/surveyExport';
import { surveyGraph } from '../../admin/sections/surveys/flow';
import { json, listDocument, makeUser, renderAdmin, sentAttributes, type Handler } from './helpers';
import { fieldConfig } from '../support/fieldConfig';

// The builder is a lazy chunk with several panels loading at once; the machine is shared.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

const admin = makeUser('Admin');

interface Field {
  id: string;
  identity: string;
  title: string;
  oFormFieldTypeId: string;
  displayOrder: number;
  isActive: boolean;
  oFormFieldCategoryId: string | null;
  configuration: FieldConfiguration;
  tags: { id: string; name: string }[];
}
interface Page {
  id: string;
  identity: string;
  title: string;
  translations?: Record<string, { title?: string }>;
  displayOrder: number;
  fields: Field[];
}

const option = (label: string, value: string, extra: Partial<FieldConfiguration['options'][number]> = {}) => ({
  label,
  value,
  translations: {},
  isDisqualified: false,
  transition: null,
  ...extra,
});

/**
 * A small in-memory oForms server: version 1 (id 5) of identity 'ident-1' with pages About you
 * (a single question), Birth (dob only) and Habits; English and Spanish languages.
 */
function surveyServer(options: { failures?: Record<string, () => Response>; missing?: MissingTranslation[]; approved?: boolean } = {}) {
  const failures = options.failures ?? {};
  let nextId = 200;
  const field = (id: string, title: string, type: string, configuration = fieldConfig(), displayOrder = 1): Field => ({
    id,
    identity: `f-${id}`,
    title,
    oFormFieldTypeId: type,
    displayOrder,
    isActive: true,
    oFormFieldCategoryId: null,
    configuration,
    tags: [],
  });
  const pages: Page[] = [
    {
      id: '1',
      identity: 'p-1',
      title: 'About you',
      displayOrder: 1,
      fields: [field('10', 'Smoker?', 'single', fieldConfig({ options: [option('Yes', 'yes'), option('No', 'no')] }))],
    },
    { id: '2', identity: 'p-2', title: 'Birth', displayOrder: 2, fields: [field('20', 'Date of birth', 'dob')] },
    { id: '3', identity: 'p-3', title: 'Habits', displayOrder: 3, fields: [field('30', 'Hobbies', 'text')] },
  ];
  const forms = [
    {
      id: '5',
      identity: 'ident-1',
      version: 1,
      title: 'Lung survey',
      isActive: true,
      isApproved: options.approved ?? false,
      approvedAt: options.approved ? '2024-05-02T10:00:00Z' : null,
      engagementId: '12',
      engagementName: 'Lung study',
      sponsorId: '7',
      sponsorName: 'Acme Pharma',
      containerCount: 3,
      transitions: [],
      created: '2024-05-01T10:00:00Z',
      modified: '2024-05-01T10:00:00Z',
    },
  ];
  const languagesEnabled = new Set<string>(['1']);
  const messages: { id: string; oFormIdentity: string; oFormVersionId: number; messageType: string; language: string; message: string }[] = [];
  const renumber = () => pages.forEach((p, i) => (p.displayOrder = i + 1));
  const allFields = () => pages.flatMap((p) => p.fields);
  const fieldResource = (f: Field, page: Page) => ({
    type: 'o-form-fields',
    id: f.id,
    attributes: { ...f, id: undefined, containerId: page.id, oFormContainerIdentity: page.identity },
  });
  const detail = (formId: string) => {
    const form = forms.find((f) => f.id === formId)!;
    const { id, ...attributes } = form;
    return {
      data: {
        type: 'o-forms',
        id,
        attributes,
        relationships: {
          oFormContainers: { data: pages.map((p) => ({ type: 'o-form-containers', id: p.id })) },
          languages: { data: [...languagesEnabled].map((l) => ({ type: 'languages', id: l })) },
        },
      },
      included: [
        ...pages.map((p) => ({
          type: 'o-form-containers',
          id: p.id,
          attributes: {
            identity: p.identity,
            title: p.title,
            translations: p.translations ?? {},
            displayOrder: p.displayOrder,
            isActive: true,
            oFormContainerTypeId: 'root_container',
            parentId: null,
            oFormVersionId: id,
            oFormIdentity: form.identity,
          },
          relationships: { oFormFields: { data: p.fields.map((f) => ({ type: 'o-form-fields', id: f.id })) }, childOFormContainers: { data: [] } },
        })),
        ...pages.flatMap((p) => p.fields.map((f) => fieldResource(f, p))),
        { type: 'languages', id: '1', attributes: { name: 'English', description: 'English', isoCode: 'en' } },
        ...(languagesEnabled.has('2') ? [{ type: 'languages', id: '2', attributes: { name: 'Spanish', description: 'Spanish', isoCode: 'es' } }] : []),
      ],
    };
  };
  const conflict = (detail: string) => json({ errors: [{ status: '409', title: 'Conflict', detail }] }, 409);

  const handler: Handler = async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    const key = `${request.method} ${path}`;
    if (failures[key]) return failures[key]!();
    const body =
      request.method === 'GET' || request.method === 'DELETE'
        ? null
        : ((await request.json()) as { data: { attributes: Record<string, unknown>; relationships?: Record<string, { data: { id: string }[] }> } });
    if (key === 'GET languages')
      return json(
        listDocument('languages', [
          { id: 1, name: 'English', description: 'English', isoCode: 'en', isActive: true, isDefault: true },
          { id: 2, name: 'Spanish', description: 'Spanish', isoCode: 'es', isActive: true, isDefault: false },
        ]),
      );
    if (key === 'GET o-forms/o-form-field-categories') return json(listDocument('o-form-field-categories', [{ id: 1, name: 'Demographics' }]));
    if (key === 'GET tags') return json(listDocument('tags', [{ id: 1, name: 'PHI' }]));
    if (key === 'GET o-forms/o-form-default-messages')
      return json(
        listDocument('o-form-default-messages', [
          { id: 'completed_contact_form:en', messageType: 'completed_contact_form', language: 'en', message: 'Thank you!' },
        ]),
      );
    if (key === 'GET o-forms/o-form-messages')
      return json(
        listDocument(
          'o-form-messages',
          messages.filter((m) => String(m.oFormVersionId) === url.searchParams.get('o_form_version_id')),
        ),
      );
    if (key === 'POST o-forms/o-form-messages') {
      const m = {
        id: String(nextId++),
        oFormIdentity: 'ident-1',
        ...(body!.data.attributes as { oFormVersionId: number; messageType: string; language: string; message: string }),
      };
      messages.push(m);
      return json({ data: { type: 'o-form-messages', id: m.id, attributes: { ...m, id: undefined } } }, 201);
    }
    if (key === 'GET o-forms/languages-o-forms')
      return json(
        listDocument('languages-o-forms', [
          { id: '5-1', oFormId: '5', languageId: '1', isoCode: 'en', name: 'English', isEnabled: true },
          { id: '5-2', oFormId: '5', languageId: '2', isoCode: 'es', name: 'Spanish', isEnabled: languagesEnabled.has('2') },
        ]),
      );
    if (key === 'GET o-forms/o-forms') {
      const rows = forms.filter((f) => !url.searchParams.get('identity') || f.identity === url.searchParams.get('identity'));
      return json(
        listDocument(
          'o-forms',
          [...rows].sort((a, b) => b.version - a.version),
        ),
      );
    }
    const formGet = /^GET o-forms\/o-forms\/(\d+)$/.exec(key);
    if (formGet && forms.some((f) => f.id === formGet[1])) return json(detail(formGet[1]!));
    const formPatch = /^PATCH o-forms\/o-forms\/(\d+)$/.exec(key);
    if (formPatch) {
      const form = forms.find((f) => f.id === formPatch[1])!;
      const languages = body!.data.relationships?.languages;
      if (languages) {
        languagesEnabled.clear();
        languagesEnabled.add('1');
        for (const l of languages.data) languagesEnabled.add(l.id);
      }
      Object.assign(form, body!.data.attributes);
      return json(detail(form.id));
    }
    if (key === 'GET o-forms/o-forms/5/missing-translations') {
      const data = (options.missing ?? []).map(({ id, ...m }) => ({
        type: MISSING_TRANSLATION_TYPE,
        id: missingTranslationId({ id, ...m }),
        attributes: { ...m, itemId: id },
      }));
      return json({ data });
    }
    if (key === 'PATCH o-forms/o-form-versions/5') {
      if (options.missing?.length) {
        return json(
          { errors: [{ status: '422', title: 'Missing Translations', detail: 'Missing.', code: 'missing_translations', meta: { missing: options.missing } }] },
          422,
        );
      }
      Object.assign(forms[0]!, { isApproved: true, approvedAt: '2024-05-03T10:00:00Z' });
      return json({
        data: { type: 'o-form-versions', id: '5', attributes: { identity: 'ident-1', version: 1, isApproved: true, approvedAt: '2024-05-03T10:00:00Z' } },
      });
    }
    if (key === 'POST o-forms/o-form-copy') {
      const copy = { ...forms[0]!, id: '6', version: 2, isApproved: false, approvedAt: null };
      forms.push(copy);
      const { id, ...attributes } = copy;
      return json({ data: { type: 'o-forms', id, attributes } }, 201);
    }
    if (key === 'POST o-forms/o-form-containers') {
      const title = (body!.data.attributes.title as string | undefined) ?? `New Page ${pages.length + 1}`;
      const page: Page = { id: String(nextId++), identity: `p-${nextId}`, title, displayOrder: pages.length + 1, fields: [] };
      pages.push(page);
      return json(
        { data: { type: 'o-form-containers', id: page.id, attributes: { identity: page.identity, title: page.title, displayOrder: page.displayOrder } } },
        201,
      );
    }
    const containerPatch = /^PATCH o-forms\/o-form-containers\/(\d+)$/.exec(key);
    if (containerPatch) {
      const index = pages.findIndex((p) => p.id === containerPatch[1]);
      const attributes = body!.data.attributes as { title?: string; displayOrder?: number; translations?: Page['translations'] };
      if (attributes.title) pages[index]!.title = attributes.title;
      if (attributes.translations) pages[index]!.translations = attributes.translations;
      if (attributes.displayOrder) {
        const [moved] = pages.splice(index, 1);
        pages.splice(attributes.displayOrder - 1, 0, moved!);
        renumber();
      }
      return json({ data: { type: 'o-form-containers', id: containerPatch[1], attributes: {} } });
    }
    const containerDelete = /^DELETE o-forms\/o-form-containers\/(\d+)$/.exec(key);
    if (containerDelete) {
      const page = pages.find((p) => p.id === containerDelete[1])!;
      const refs = allFields().flatMap((f) =>
        f.configuration.options
          .filter((o) => o.transition?.to === 'page' && o.transition.identity === page.identity)
          .map((o) => `'${o.label}' of '${f.title}'`),
      );
      if (refs.length) return conflict(`This page cannot be deleted: ${refs.join(', ')} jumps to it. Point that option elsewhere first.`);
      pages.splice(pages.indexOf(page), 1);
      renumber();
      return new Response(null, { status: 204 });
    }
    if (key === 'POST o-forms/o-form-fields') {
      const page = pages.find((p) => p.id === String(body!.data.attributes.containerId))!;
      const f = field(String(nextId++), 'Placeholder', 'placeholder', fieldConfig(), page.fields.length + 1);
      page.fields.push(f);
      return json({ data: fieldResource(f, page) }, 201);
    }
    const fieldPatch = /^PATCH o-forms\/o-form-fields\/(\d+)$/.exec(key);
    if (fieldPatch) {
      const page = pages.find((p) => p.fields.some((f) => f.id === fieldPatch[1]))!;
      const f = page.fields.find((x) => x.id === fieldPatch[1])!;
      const { categoryId, tagIds: _tags, ...attributes } = body!.data.attributes as Partial<Field> & { categoryId?: number | null; tagIds?: number[] };
      Object.assign(f, attributes, categoryId === undefined ? {} : { oFormFieldCategoryId: categoryId === null ? null : String(categoryId) });
      // The server's rule: a multiple question without options gets 'None of the Above'.
      if (f.oFormFieldTypeId === 'multiple' && f.configuration.options.length === 0)
        f.configuration = { ...f.configuration, options: [option('None of the Above', 'none_of_the_above')] };
      return json({ data: fieldResource(f, page) });
    }
    return undefined;
  };
  return { handler, pages, forms, messages, languagesEnabled };
}

/** Types `value` into `input` and leaves it: a field that saves on blur. */
const typeThenLeave = (input: HTMLElement, value: string) => {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);
const patchesTo = (requests: { method: string; path: string; body: unknown }[], path: string) =>
  requests.filter((r) => r.method === 'PATCH' && r.path === path).map(sentAttributes);

describe('versioned survey builder', () => {
  it('adds a page, reorders pages with the arrows and by dragging, and shows why a page cannot be deleted', async () => {
    const { handler, pages } = surveyServer();
    pages[0]!.fields[0]!.configuration.options[0]!.transition = { to: 'page', identity: 'p-3' };
    const { server } = renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const list = await screen.findByRole('list', { name: 'Page order' });

    fireEvent.click(screen.getByRole('button', { name: 'Add Page' }));
    expect((await screen.findByRole('button', { name: 'New Page 4' })).getAttribute('aria-pressed')).toBe('true');
    await screen.findByText('No questions on this page yet.');

    fireEvent.click(screen.getByRole('button', { name: 'Move page New Page 4 up' }));
    await waitFor(() => expect(pages.map((p) => p.title)).toEqual(['About you', 'Birth', 'New Page 4', 'Habits']));
    expect(patchesTo(server.requests, `o-forms/o-form-containers/${pages[2]!.id}`)).toContainEqual({ displayOrder: 3 });

    // Drag Habits onto About you: it takes the first place.
    const items = () => within(list).getAllByRole('listitem');
    await waitFor(() => expect(items().map((li) => within(li).getAllByRole('button')[0]!.textContent)).toEqual(['About you', 'Birth', 'New Page 4', 'Habits']));
    fireEvent.dragStart(items()[3]!, { dataTransfer: { setData: () => undefined, effectAllowed: 'move' } });
    fireEvent.dragOver(items()[0]!);
    fireEvent.drop(items()[0]!, { dataTransfer: { getData: () => '' } });
    await waitFor(() => expect(pages.map((p) => p.title)).toEqual(['Habits', 'About you', 'Birth', 'New Page 4']));

    // Habits is where 'Yes' of 'Smoker?' jumps: the server refuses, and says so.
    fireEvent.click(screen.getByRole('button', { name: 'Delete page Habits' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    const refusal = await screen.findByText(/This page cannot be deleted: 'Yes' of 'Smoker\?' jumps to it/);
    expect(refusal.getAttribute('role')).toBe('alert');
    expect(pages).toHaveLength(4);
  });

  it('undoes and redoes page edits: add, move, delete (its questions come back too)', async () => {
    const { handler, pages } = surveyServer();
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    await screen.findByRole('list', { name: 'Page order' });
    const titles = () => pages.map((p) => p.title);
    const history = await screen.findByRole('group', { name: 'Undo and redo' });
    const step = async (name: 'Undo' | 'Redo', expected: string[]) => {
      const button = within(history).getByRole('button', { name });
      await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
      fireEvent.click(button);
      await waitFor(() => expect(titles()).toEqual(expected));
    };

    fireEvent.click(screen.getByRole('button', { name: 'Add Page' }));
    await waitFor(() => expect(titles()).toEqual(['About you', 'Birth', 'Habits', 'New Page 4']));
    fireEvent.click(await screen.findByRole('button', { name: 'Move page Habits up' }));
    await waitFor(() => expect(titles()).toEqual(['About you', 'Habits', 'Birth', 'New Page 4']));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete page Birth' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(titles()).toEqual(['About you', 'Habits', 'New Page 4']));

    await step('Undo', ['About you', 'Habits', 'Birth', 'New Page 4']);
    expect(pages[2]!.fields.map((f) => [f.title, f.oFormFieldTypeId])).toEqual([['Date of birth', 'dob']]);
    await step('Undo', ['About you', 'Birth', 'Habits', 'New Page 4']);
    await step('Undo', ['About you', 'Birth', 'Habits']);
    await step('Redo', ['About you', 'Birth', 'Habits', 'New Page 4']);
    await step('Redo', ['About you', 'Habits', 'Birth', 'New Page 4']);
    // The page brought back has a new id; the history follows it there.
    await step('Redo', ['About you', 'Habits', 'New Page 4']);
  });

  it('keeps one question open: a new one opens, the others show their options and rules in a line; yes/no starts with Yes and No', async () => {
    const { handler, pages } = surveyServer();
    pages[0]!.fields[0]!.configuration.options[1]!.isDisqualified = true;
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const first = await screen.findByRole('listitem', { name: 'Question 1' });
    expect(within(first).getByRole('button', { expanded: true })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    const second = await screen.findByRole('listitem', { name: 'Question 2' });
    await waitFor(() => expect(within(second).getByRole('button', { expanded: true })).toBeTruthy());
    const closed = screen.getByRole('listitem', { name: 'Question 1' });
    expect(closed.querySelector('.question-card-summary')?.textContent).toBe('Yes, No · Disqualifies: No');
    expect(within(closed).queryByLabelText('Question title', { exact: true })).toBeNull();

    fireEvent.change(within(second).getByLabelText('Type', { exact: true }), { target: { value: 'yes_no' } });
    await within(second).findByRole('listitem', { name: 'Option Yes' });
    within(second).getByRole('listitem', { name: 'Option No' });
    await waitFor(() =>
      expect(pages[0]!.fields[1]!.configuration.options.map((o) => [o.label, o.value])).toEqual([
        ['Yes', 'yes'],
        ['No', 'no'],
      ]),
    );
  });

  it('edits a question: title saved on leaving the field, type change brings None of the Above, limits per type', async () => {
    const { handler, pages } = surveyServer();
    const { server } = renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    fireEvent.click(await screen.findByRole('button', { name: 'Habits' }));
    const card = await screen.findByRole('listitem', { name: 'Question 1' });
    const title = within(card).getByLabelText('Question title', { exact: true });
    fireEvent.change(title, { target: { value: 'Your hobbies' } });
    fireEvent.change(within(card).getByLabelText('Maximum length', { exact: true }), { target: { value: '80' } });
    fireEvent.blur(title);
    await waitFor(() => expect(pages[2]!.fields[0]!.title).toBe('Your hobbies'));
    expect(pages[2]!.fields[0]!.configuration.maxLength).toBe(80);

    fireEvent.change(within(card).getByLabelText('Type', { exact: true }), { target: { value: 'multiple' } });
    await within(card).findByRole('listitem', { name: 'Option None of the Above' });
    // Limits of a text question are left behind when it becomes a choice question.
    const last = patchesTo(server.requests, 'o-forms/o-form-fields/30').at(-1)!;
    expect(last.oFormFieldTypeId).toBe('multiple');
    expect(last.configuration).not.toHaveProperty('maxLength');
    expect(within(card).queryByLabelText('Maximum length', { exact: true })).toBeNull();

    // Options added later go before 'None of the Above', which participants see last.
    fireEvent.click(within(card).getByRole('button', { name: 'Add Option' }));
    await within(card).findByRole('listitem', { name: 'Option Option 2' });
    fireEvent.click(within(card).getByRole('button', { name: 'Add Option' }));
    await within(card).findByRole('listitem', { name: 'Option Option 3' });
    await waitFor(() => expect(pages[2]!.fields[0]!.configuration.options.map((o) => o.label)).toEqual(['Option 2', 'Option 3', 'None of the Above']));
    const shown = within(card)
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('aria-label'));
    expect(shown.filter((name) => name?.startsWith('Option '))).toEqual(['Option Option 2', 'Option Option 3', 'Option None of the Above']);
  });

  it('saves what was typed on the way out without asking, and asks only when that save fails', async () => {
    const failures: Record<string, () => Response> = {};
    const { handler, pages } = surveyServer({ failures });
    const { router, location } = renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const card = await screen.findByRole('listitem', { name: 'Question 1' });
    // Typed, never left: leaving the builder saves it and goes.
    fireEvent.change(within(card).getByLabelText('Question title', { exact: true }), { target: { value: 'Do you smoke?' } });
    await router.navigate('/surveys-new');
    await waitFor(() => expect(location()).toBe('/surveys-new'));
    expect(pages[0]!.fields[0]!.title).toBe('Do you smoke?');
    expect(screen.queryByRole('dialog')).toBeNull();

    // A save the server refuses: leaving asks, and Stay keeps the text.
    await router.navigate('/surveys-new/edit/5');
    failures['PATCH o-forms/o-form-containers/1'] = () => json({ errors: [{ status: '422', title: 'Invalid Attribute', detail: 'Too long.' }] }, 422);
    fireEvent.change(await screen.findByLabelText('Page title', { exact: true }), { target: { value: 'Renamed page' } });
    void router.navigate('/surveys-new');
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/surveys-new/edit/5');
    expect((screen.getByLabelText('Page title', { exact: true }) as HTMLInputElement).value).toBe('Renamed page');
    expect(pages[0]!.title).toBe('About you');
  });

  it('sets an option’s transition (only allowed pages offered) and its disqualify flag', async () => {
    const { handler, pages } = surveyServer();
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const yes = await screen.findByRole('listitem', { name: 'Option Yes' });
    const transition = within(yes).getByLabelText('Transition', { exact: true });
    // Not the option's own page, not Birth (only date-of-birth questions).
    expect(optionsOf(transition)).toEqual(['Next page', 'End of survey', 'Page: Habits', 'A new page…']);
    fireEvent.change(transition, { target: { value: 'page:p-3' } });
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.options[0]!.transition).toEqual({ to: 'page', identity: 'p-3' }));
    const no = screen.getByRole('listitem', { name: 'Option No' });
    fireEvent.click(within(no).getByLabelText('Disqualify', { exact: true }));
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.options[1]!.isDisqualified).toBe(true));
    // Both saves kept the other's change.
    expect(pages[0]!.fields[0]!.configuration.options[0]!.transition).toEqual({ to: 'page', identity: 'p-3' });

    fireEvent.click(screen.getByRole('button', { name: 'Add Option' }));
    await screen.findByRole('listitem', { name: 'Option Option 3' });
    expect(pages[0]!.fields[0]!.configuration.options.map((o) => o.value)).toEqual(['yes', 'no', 'option_3']);

    // The select makes its target: a new page, jumped to.
    fireEvent.change(within(screen.getByRole('listitem', { name: 'Option Yes' })).getByLabelText('Transition', { exact: true }), {
      target: { value: 'new-page' },
    });
    await waitFor(() => expect(pages.map((p) => p.title)).toEqual(['About you', 'Birth', 'Habits', 'New Page 4']));
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.options[0]!.transition).toEqual({ to: 'page', identity: pages[3]!.identity }));
  });

  it('edits translations in the chosen language after enabling it', async () => {
    const { handler, pages, languagesEnabled } = surveyServer();
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const languages = await screen.findByRole('region', { name: 'Survey languages' });
    const spanish = await within(languages).findByLabelText('Spanish (es)');
    fireEvent.click(spanish);
    await waitFor(() => expect(languagesEnabled.has('2')).toBe(true));
    const switcher = within(languages).getByLabelText('Editing language', { exact: true });
    await waitFor(() => expect(optionsOf(switcher)).toContain('Spanish (es)'));
    fireEvent.change(switcher, { target: { value: 'es' } });
    const card = await screen.findByRole('listitem', { name: 'Question 1' });
    const title = within(card).getByLabelText('Question title (es)', { exact: true });
    typeThenLeave(title, '¿Fuma?');
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.translations).toEqual({ es: { title: '¿Fuma?' } }));
    const yes = within(card).getByRole('listitem', { name: 'Option Yes' });
    const label = within(yes).getByLabelText('Label (es)', { exact: true });
    typeThenLeave(label, 'Sí');
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.options[0]!.translations).toEqual({ es: 'Sí' }));
    expect(pages[0]!.fields[0]!.title).toBe('Smoker?');

    // The page title beside the questions' texts, with the default title as its hint.
    const editor = screen.getByRole('region', { name: 'Page About you' });
    const pageTitle = within(editor).getByLabelText('Page title (es)', { exact: true }) as HTMLInputElement;
    expect(pageTitle.value).toBe('');
    expect(document.getElementById(pageTitle.getAttribute('aria-describedby')!)?.textContent).toBe('About you');
    typeThenLeave(pageTitle, 'Sobre usted');
    await waitFor(() => expect(pages[0]!.translations).toEqual({ es: { title: 'Sobre usted' } }));
    expect(pages[0]!.title).toBe('About you');
    expect(within(editor).queryByLabelText('Page title', { exact: true })).toBeNull();

    // Back in the default language the title is the English one again, the translation kept.
    fireEvent.change(switcher, { target: { value: '' } });
    const english = (await within(await screen.findByRole('region', { name: 'Page About you' })).findByLabelText('Page title', {
      exact: true,
    })) as HTMLInputElement;
    expect(english.value).toBe('About you');
    fireEvent.change(switcher, { target: { value: 'es' } });
    expect(((await screen.findByLabelText('Page title (es)', { exact: true })) as HTMLInputElement).value).toBe('Sobre usted');
  });

  it('shows the missing translations in the Approve dialog and cannot approve until they are done', async () => {
    const missing: MissingTranslation[] = [
      { kind: 'page', id: '1', title: 'About you', language: 'es' },
      { kind: 'question', id: '10', title: 'Smoker?', language: 'es' },
      { kind: 'message', id: 'not_qualified_consent', title: 'not_qualified_consent', language: 'es' },
    ];
    const { handler, forms } = surveyServer({ missing });
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve version 1' });
    const list = await within(dialog).findByRole('list', { name: 'Missing translations' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Page title ‘About you’ has no es translation.',
      'Question ‘Smoker?’ has no es translation.',
      'Message ‘not_qualified_consent’ has no es translation.',
    ]);
    expect((within(dialog).getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(forms[0]!.isApproved).toBe(false);
  });

  it('approves a version, which then reads only, and makes the next version', async () => {
    const { handler, forms } = surveyServer();
    const { location } = renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    fireEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve version 1' });
    await within(dialog).findByText(/can never change again/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(forms[0]!.isApproved).toBe(true));
    const bar = await screen.findByRole('region', { name: 'Version' });
    await within(bar).findByText('Approved');
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText('This version is approved and cannot change. Make a new version to edit it.')).toBeTruthy();
    // Disabled through the page editor's fieldset (happy-dom does not apply it to the controls; the e2e checks them).
    expect(screen.getByRole('listitem', { name: 'Question 1' }).closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add Page' })).toBeNull();

    fireEvent.click(within(bar).getByRole('button', { name: 'New version' }));
    await waitFor(() => expect(location()).toBe('/surveys-new/edit/6'));
    // The new version replaces the old one's screen once it is loaded.
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Version' })).getByText('Version 2')).toBeTruthy());
    const nextBar = screen.getByRole('region', { name: 'Version' });
    await within(nextBar).findByText('Draft');
    await within(nextBar).findByRole('link', { name: 'Version 1 (Approved)' });
  });

  it('shows the SPEC error texts and keeps what was typed', async () => {
    const crash = () => new Response('oops', { status: 500 });
    const { handler } = surveyServer({
      failures: {
        'POST o-forms/o-form-containers': crash,
        'POST o-forms/o-form-fields': crash,
        'PATCH o-forms/o-form-fields/10': crash,
        'POST o-forms/o-form-messages': crash,
        'GET o-forms/languages-o-forms': crash,
        'POST o-forms/export-to-pdf/5/0': crash,
      },
    });
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    await screen.findByRole('listitem', { name: 'Option Yes' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Page' }));
    await screen.findByText('Could not add Page');
    fireEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    await screen.findByText('Could not add Question');
    fireEvent.click(screen.getByRole('button', { name: 'Add Option' }));
    await screen.findByText('Could not add Option');
    await screen.findByText('Could not get languages');

    fireEvent.click(screen.getByRole('tab', { name: 'Messages' }));
    const messages = await screen.findByRole('region', { name: 'Survey messages' });
    const completed = await within(messages).findByLabelText('Completed: contact form (en)', { exact: true });
    await waitFor(() => expect((completed as HTMLTextAreaElement).disabled).toBe(false));
    expect((completed as HTMLTextAreaElement).placeholder).toBe('Thank you!');
    typeThenLeave(completed, 'Thanks a lot');
    await within(messages).findByText('Could Not Save Survey Messages');
    expect((completed as HTMLTextAreaElement).value).toBe('Thanks a lot');

    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    await screen.findByText('Could not export survey');
  });

  it('saves a message in the version’s language once it is written', async () => {
    const { handler, messages } = surveyServer();
    renderAdmin({ path: '/surveys-new/edit/5?tab=messages', user: admin, handler });
    const region = await screen.findByRole('region', { name: 'Survey messages' });
    const completed = await within(region).findByLabelText('Completed: contact form (en)', { exact: true });
    await waitFor(() => expect((completed as HTMLTextAreaElement).disabled).toBe(false));
    typeThenLeave(completed, 'Thanks a lot');
    await waitFor(() =>
      expect(messages).toMatchObject([{ messageType: 'completed_contact_form', language: 'en', message: 'Thanks a lot', oFormVersionId: 5 }]),
    );
  });
});

describe('versioned survey languages and exports', () => {
  it('puts a language back when the server refuses to toggle it', async () => {
    const { handler, languagesEnabled } = surveyServer({ failures: { 'PATCH o-forms/o-forms/5': () => new Response('oops', { status: 500 }) } });
    renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler });
    const languages = await screen.findByRole('region', { name: 'Survey languages' });
    const spanish = (await within(languages).findByLabelText('Spanish (es)')) as HTMLInputElement;
    fireEvent.click(spanish);
    await within(languages).findByText('Could not toggle language');
    expect(spanish.checked).toBe(false);
    expect(languagesEnabled.has('2')).toBe(false);
  });

  it('downloads the PDF and the metrics CSV with the staff token', async () => {
    const { handler } = surveyServer();
    const files: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (request.method === 'POST' && path === 'o-forms/export-to-pdf/5/0') {
        return json({ data: { type: 'o-form-exports', id: '5', attributes: { filename: 'lung-survey-v1.pdf', url: '/api/o-forms/o-form-exports/5' } } });
      }
      if (path === 'o-forms/o-form-exports/5')
        return new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="lung-survey-v1.pdf"' } });
      if (path === 'export-survey-metrics/5')
        return new Response('page,title\n', {
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="lung-survey-v1-metrics.csv"' },
        });
      return handler(request, url);
    };
    const { server } = renderAdmin({ path: '/surveys-new/edit/5', user: admin, handler: files });
    const bar = await screen.findByRole('region', { name: 'Version' });
    // A click on a button the bar has disabled (busy with another action) does nothing.
    const enabled = async (name: string) => {
      const button = within(bar).getByRole('button', { name });
      await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
      return button;
    };
    fireEvent.click(await enabled('Export PDF'));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'GET' && r.path === 'o-forms/o-form-exports/5')).toBe(true));
    fireEvent.click(await enabled('Export metrics'));
    await waitFor(() => expect(server.requests.some((r) => r.path === 'export-survey-metrics/5')).toBe(true));
    for (const path of ['o-forms/o-form-exports/5', 'export-survey-metrics/5']) {
      expect(server.requests.find((r) => r.path === path)?.authorization).toBe('Bearer access-1');
    }
    expect(within(bar).queryByText('Could not export survey')).toBeNull();
  });

  it("shows the version's drop-off per page from the server's page metrics", async () => {
    const { handler } = surveyServer();
    const metrics: Handler = (request, url) => {
      if (url.pathname === '/api/survey-page-metrics/5') {
        return json(
          listDocument('survey-page-metrics', [
            { id: 1, page: 1, identity: 'p-1', title: 'About you', views: 40, completions: 30, dropOff: 10, medianSeconds: 12, p90Seconds: 30 },
            { id: 2, page: 2, identity: 'p-2', title: 'Birth', views: 30, completions: 20, dropOff: 6, medianSeconds: 8.4, p90Seconds: null },
            { id: 3, page: 3, identity: 'p-3', title: 'Habits', views: 0, completions: 0, dropOff: 0, medianSeconds: null, p90Seconds: null },
          ]),
        );
      }
      return handler(request, url);
    };
    renderAdmin({ path: '/surveys-new/view/5', user: admin, handler: metrics });
    const chart = await screen.findByRole('figure', { name: 'Drop-off per page' });
    const pages = within(chart).getAllByRole('listitem');
    expect(pages.map((p) => p.getAttribute('aria-label'))).toEqual(['Page 1: About you', 'Page 2: Birth', 'Page 3: Habits']);
    expect(pages[1]!.querySelector('.dropoff-figures')!.textContent).toBe('30 reached · 6 left here (20.0%) · median 8 s, p90 –');
    expect((pages[1]!.querySelector('.dropoff-reached') as HTMLElement).style.width).toBe('75%');
    expect((pages[1]!.querySelector('.dropoff-left') as HTMLElement).style.width).toBe('20%');
    expect(pages[2]!.querySelector('.dropoff-figures')!.textContent).toBe('0 reached · 0 left here · median –, p90 –');
  });
});

describe('survey flow graph', () => {
  /** A question of the graph's page `page`. */
  const graphQuestion = (page: string, identity: string, type: 'single' | 'dob', configuration: FieldConfiguration) => ({
    id: identity,
    identity,
    containerId: page,
    oFormContainerIdentity: page,
    title: 'Q',
    oFormFieldTypeId: type,
    oFormFieldCategoryId: null,
    isActive: true,
    displayOrder: 1,
    configuration,
    tags: [],
  });
  /** A page of the graph (a root container of survey 5) holding `fields`. */
  const graphPage = (identity: string, title: string, fields: ReturnType<typeof graphQuestion>[]) => ({
    id: identity,
    identity,
    title,
    displayOrder: 1,
    isActive: true,
    oFormVersionId: '5',
    oFormIdentity: 'x',
    oFormContainerTypeId: 'root_container' as const,
    parentId: null,
    translations: {},
    fields,
  });

  it('has a node per page, next-page edges and a labelled edge per transition', () => {
    const page = (identity: string, title: string, options: FieldConfiguration['options'] = []) =>
      graphPage(identity, title, [graphQuestion(identity, `f-${identity}`, 'single', fieldConfig({ options }))]);
    const graph = surveyGraph([
      page('a', 'One', [
        option('Skip', 'skip', { transition: { to: 'page', identity: 'c' } }),
        option('Stop', 'stop', { isDisqualified: true, transition: { to: 'end' } }),
      ]),
      page('b', 'Two'),
      page('c', 'Three'),
    ]);
    expect(graph.nodes.map((n) => n.id)).toEqual(['a', 'b', 'c', 'end']);
    expect(graph.edges.map((e) => [e.source, e.target, e.label, e.disqualifies, e.kind])).toEqual([
      ['a', 'b', null, false, 'next'],
      ['a', 'c', 'Skip', false, 'branch'],
      ['a', 'end', 'Stop', true, 'branch'],
      ['b', 'c', null, false, 'next'],
      ['c', 'end', null, false, 'next'],
    ]);
  });

  it('leads disqualifying options and age ranges to Disqualified, each labelled', () => {
    const graph = surveyGraph([
      graphPage('p', 'P', [
        graphQuestion('p', 'q1', 'single', fieldConfig({ options: [option('Fewer than 4 days', 'few', { isDisqualified: true }), option('More', 'more')] })),
        graphQuestion('p', 'q2', 'dob', fieldConfig({ minAge: 18, maxAge: 65 })),
      ]),
    ]);
    expect(graph.nodes.map((n) => [n.id, n.title])).toEqual([
      ['p', 'P'],
      ['end', 'End of survey'],
      ['disqualified', 'Disqualified'],
    ]);
    expect(graph.edges.filter((e) => e.kind === 'out').map((e) => [e.source, e.target, e.label])).toEqual([
      ['p', 'disqualified', 'Fewer than 4 days'],
      ['p', 'disqualified', 'Age outside 18–65'],
    ]);
  });
});

describe('survey translations grid', () => {
  const gridOf = async () => {
    const grid = await screen.findByRole('region', { name: 'Translations' });
    await waitFor(() => expect(grid.getAttribute('aria-busy')).toBeNull());
    return grid;
  };
  /** The translations tab of a survey with Spanish on, once its grid has loaded. */
  const openSpanishGrid = async () => {
    const survey = surveyServer();
    survey.languagesEnabled.add('2');
    renderAdmin({ path: '/surveys-new/edit/5?tab=translations', user: admin, handler: survey.handler });
    return { ...survey, grid: await gridOf() };
  };
  const cell = (grid: HTMLElement, name: string) => within(grid).getByLabelText(name, { exact: true }) as HTMLInputElement;
  const upload = (grid: HTMLElement, text: string) =>
    fireEvent.change(within(grid).getByLabelText('Import CSV'), { target: { files: [new File([text], 'grid.csv', { type: 'text/csv' })] } });

  it('shows every text beside its Spanish, marks the missing ones and saves a cell on leaving it', async () => {
    const { pages, grid } = await openSpanishGrid();
    const page = cell(grid, 'Page 1 (es)');
    expect(page.getAttribute('aria-invalid')).toBe('true');
    expect(page.closest('td')!.className).toBe('missing');
    expect(within(grid).getByRole('status').textContent).toMatch(/^\d+ missing/);
    // Pages, questions, options, then the nine messages (the shipped Spanish ones are not missing).
    expect(cell(grid, 'Page 1 · Question 1 · Option Yes (es)')).toBeTruthy();
    expect(cell(grid, 'Message · Completed: contact form (es)').placeholder).toMatch(/^¡Gracias!/);

    typeThenLeave(page, 'Sobre usted');
    // Two cells of one question left in quick succession: both are kept.
    const yes = cell(grid, 'Page 1 · Question 1 · Option Yes (es)');
    typeThenLeave(yes, 'Sí');
    const no = cell(grid, 'Page 1 · Question 1 · Option No (es)');
    typeThenLeave(no, 'No');
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.options.map((o) => o.translations)).toEqual([{ es: 'Sí' }, { es: 'No' }]));
    expect(pages[0]!.translations).toEqual({ es: { title: 'Sobre usted' } });
    await waitFor(() => expect(cell(grid, 'Page 1 (es)').getAttribute('aria-invalid')).toBeNull());
    expect(cell(grid, 'Page 1 (es)').value).toBe('Sobre usted');
  });

  it('undoes and redoes a translation saved from the grid', async () => {
    const { pages, grid } = await openSpanishGrid();
    const page = cell(grid, 'Page 1 (es)');
    typeThenLeave(page, 'Sobre usted');
    await waitFor(() => expect(pages[0]!.translations).toEqual({ es: { title: 'Sobre usted' } }));
    const history = screen.getByRole('group', { name: 'Undo and redo' });
    const undo = within(history).getByRole('button', { name: /^Undo/ });
    await waitFor(() => expect((undo as HTMLButtonElement).disabled).toBe(false));
    expect(undo.getAttribute('title')).toBe('Undo translation (Ctrl+Z)');
    fireEvent.click(undo);
    await waitFor(() => expect(pages[0]!.translations).toEqual({ es: { title: '' } }));
    await waitFor(() => expect(cell(grid, 'Page 1 (es)').getAttribute('aria-invalid')).toBe('true'));
    fireEvent.click(within(history).getByRole('button', { name: /^Redo/ }));
    await waitFor(() => expect(pages[0]!.translations).toEqual({ es: { title: 'Sobre usted' } }));
    await waitFor(() => expect(cell(grid, 'Page 1 (es)').value).toBe('Sobre usted'));
  });

  it('exports the grid as formula-safe CSV and imports it back, refusing a file with a mistake whole', async () => {
    const { handler, pages, languagesEnabled, messages } = surveyServer();
    languagesEnabled.add('2');
    pages[2]!.translations = { es: { title: '=Hábitos' } };
    const blobs: Blob[] = [];
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:grid';
    });
    const { server } = renderAdmin({ path: '/surveys-new/edit/5?tab=translations', user: admin, handler });
    const grid = await gridOf();
    fireEvent.click(within(grid).getByRole('button', { name: 'Export CSV' }));
    expect(blobs).toHaveLength(1);
    const exported = (await blobs[0]!.text()).replace(/^\ufeff/, '');
    created.mockRestore();
    const lines = exported.trim().split('\r\n');
    expect(lines[0]).toBe('key,where,en,es');
    expect(lines).toContain("page:3,Page 3,Habits,'=Hábitos");
    expect(lines).toContain('question:10,Page 1 · Question 1,Smoker?,');

    const writes = () => server.requests.filter((r) => r.method !== 'GET').length;
    const before = writes();
    const fill = (line: string) =>
      line === 'question:10,Page 1 · Question 1,Smoker?,' ? `${line}¿Fuma?` : line.startsWith('message:not_qualified_consent,') ? `${line}Lo sentimos.` : line;
    upload(grid, [...lines.map(fill), 'page:99,,Nowhere,Ninguna'].join('\r\n'));
    const alert = await within(grid).findByRole('alert');
    expect(alert.textContent).toContain('Nothing was imported');
    expect(within(alert).getByRole('listitem').textContent).toBe(`Row ${lines.length + 1}, column key: 'page:99' is not a text of this survey version.`);
    expect(writes()).toBe(before);

    upload(grid, lines.map(fill).join('\r\n'));
    await waitFor(() => expect(pages[0]!.fields[0]!.configuration.translations).toEqual({ es: { title: '¿Fuma?' } }));
    await waitFor(() => expect(messages.find((m) => m.messageType === 'not_qualified_consent' && m.language === 'es')?.message).toBe('Lo sentimos.'));
    // The guarded formula came back as it was typed.
    expect(pages[2]!.translations).toEqual({ es: { title: '=Hábitos' } });
    await waitFor(() => expect(within(grid).queryByRole('alert')).toBeNull());
  });
});
