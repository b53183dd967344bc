import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, sentAttributes, type Handler } from './helpers';

const admin = makeUser('Admin');

type Option = {
  id: string;
  questionId: string;
  label: string;
  value: string;
  isDisqualified: boolean;
  transitionTo: string | null;
  transitionTarget: string | null;
  translations: Record<string, string>;
  displayOrder: number;
};
type Question = {
  id: string;
  pageId: string;
  questionType: string;
  title: string;
  helperText: string | null;
  questionCategoryId: string | null;
  tags: [];
  translations: object;
  displayOrder: number;
  options: Option[];
};
type Page = { id: string; surveyId: string; title: string; displayOrder: number; isActive: boolean; questions: Question[] };

function option(id: string, questionId: string, label: string, extra: Partial<Option> = {}): Option {
  return {
    id,
    questionId,
    label,
    value: label.toLowerCase(),
    isDisqualified: false,
    transitionTo: null,
    transitionTarget: null,
    translations: {},
    displayOrder: 1,
    ...extra,
  };
}
function question(id: string, pageId: string, questionType: string, title: string, options: Option[] = []): Question {
  return { id, pageId, questionType, title, helperText: null, questionCategoryId: null, tags: [], translations: {}, displayOrder: 1, options };
}

/** A small in-memory survey server: pages About you (a single question), Birth (dob only) and Habits. */
function surveyServer(failures: Record<string, () => Response> = {}) {
  const pages: Page[] = [
    {
      id: '1',
      surveyId: '5',
      title: 'About you',
      displayOrder: 1,
      isActive: true,
      questions: [question('10', '1', 'single', 'Smoker?', [option('100', '10', 'Yes')])],
    },
    { id: '2', surveyId: '5', title: 'Birth', displayOrder: 2, isActive: true, questions: [question('20', '2', 'dob', 'Date of birth')] },
    { id: '3', surveyId: '5', title: 'Habits', displayOrder: 3, isActive: true, questions: [question('30', '3', 'text', 'Hobbies')] },
  ];
  let nextId = 200;
  const survey = () => ({
    id: '5',
    title: 'Lung screening',
    globalId: 'g-1',
    isActive: true,
    engagementId: '12',
    engagementName: 'Lung study',
    sponsorId: '7',
    sponsorName: 'Acme Pharma',
    screenerId: null,
    pageCounter: pages.length,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-01T10:00:00Z',
    pages,
  });
  const findQuestion = (id: string) => pages.flatMap((p) => p.questions).find((q) => q.id === id)!;
  const handler: Handler = async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    const key = `${request.method} ${path}`;
    if (failures[key]) return failures[key]!();
    const body = request.method === 'GET' ? null : ((await request.json()) as { data: { attributes: Record<string, unknown> } });
    if (key === 'GET surveys/5') return json(resourceDocument('surveys', survey()));
    if (key === 'GET languages')
      return json(listDocument('languages', [{ id: 1, name: 'English', description: 'English', isoCode: 'en', isActive: true, isDefault: true }]));
    if (key === 'GET question-categories') return json(listDocument('question-categories', [{ id: 1, name: 'Demographics' }]));
    if (key === 'GET tags') return json(listDocument('tags', [{ id: 1, name: 'PHI' }]));
    if (key === 'GET engagements')
      return json(
        listDocument('engagements', [
          { id: 12, name: 'Lung study' },
          { id: 13, name: 'Second study' },
        ]),
      );
    if (key === 'GET engagements-options') return json(listDocument('engagements-options', []));
    if (key === 'POST pages') {
      const page: Page = {
        id: String(nextId++),
        surveyId: '5',
        title: `New Page ${pages.length + 1}`,
        displayOrder: pages.length + 1,
        isActive: true,
        questions: [],
      };
      pages.push(page);
      return json(resourceDocument('pages', { ...page, pageCounter: pages.length }), 201);
    }
    if (key === 'POST questions') {
      const page = pages.find((p) => p.id === String(body!.data.attributes.pageId))!;
      const q = question(String(nextId++), page.id, 'placeholder', 'Placeholder');
      page.questions.push(q);
      return json(resourceDocument('questions', q), 201);
    }
    const questionPatch = /^PATCH questions\/(\d+)$/.exec(key);
    if (questionPatch) {
      const q = findQuestion(questionPatch[1]!);
      Object.assign(q, body!.data.attributes);
      // The server's rule: a multiple question without options gets 'None of the Above'.
      if (q.questionType === 'multiple' && q.options.length === 0) q.options.push(option(String(nextId++), q.id, 'None of the Above'));
      return json(resourceDocument('questions', q));
    }
    if (key === 'POST options') {
      const q = findQuestion(String(body!.data.attributes.questionId));
      const o = option(String(nextId++), q.id, `Option ${q.options.length + 1}`);
      q.options.push(o);
      return json(resourceDocument('options', o), 201);
    }
    const optionPatch = /^PATCH options\/(\d+)$/.exec(key);
    if (optionPatch) {
      const o = pages
        .flatMap((p) => p.questions)
        .flatMap((q) => q.options)
        .find((x) => x.id === optionPatch[1])!;
      Object.assign(o, body!.data.attributes, {
        transitionTarget: body!.data.attributes.transitionTarget == null ? null : String(body!.data.attributes.transitionTarget),
      });
      return json(resourceDocument('options', o));
    }
    if (/^POST update-engagements-options\/\d+$/.test(key)) return json(listDocument('engagements-options', []));
    return undefined;
  };
  return { handler, pages };
}

const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('Legacy survey editor', () => {
  it('offers End of survey and valid pages as transitions, never an all-dob page or the option’s own page', async () => {
    const { handler, pages } = surveyServer();
    const { server } = renderAdmin({ path: '/surveys/edit/5', user: admin, handler });
    const optionRow = await screen.findByRole('listitem', { name: 'Option Yes' });
    const transition = within(optionRow).getByLabelText('Transition', { exact: true });
    expect(optionsOf(transition)).toEqual(['Next page', 'End of survey', 'Page: Habits']);

    fireEvent.change(transition, { target: { value: 'end' } });
    fireEvent.click(within(optionRow).getByRole('button', { name: 'Save Option' }));
    await waitFor(() => expect(pages[0]!.questions[0]!.options[0]!.transitionTo).toBe('end'));
    const patch = server.requests.find((r) => r.method === 'PATCH' && r.path === 'options/100');
    expect(sentAttributes(patch)).toMatchObject({ transitionTo: 'end', transitionTarget: null });
  });

  it("shows 'None of the Above' once a question becomes multiple, and adds pages and questions", async () => {
    const { handler } = surveyServer();
    renderAdmin({ path: '/surveys/edit/5', user: admin, handler });
    await screen.findByRole('listitem', { name: 'Option Yes' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Page' }));
    const newPage = await screen.findByRole('button', { name: 'New Page 4' });
    expect(newPage.getAttribute('aria-pressed')).toBe('true');
    await screen.findByText('No questions on this page yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    const card = await screen.findByRole('listitem', { name: 'Question 1' });
    expect((within(card).getByLabelText('Question title', { exact: true }) as HTMLInputElement).value).toBe('Placeholder');
    expect(screen.queryByText('None of the Above')).toBeNull();

    fireEvent.change(within(card).getByLabelText('Type', { exact: true }), { target: { value: 'multiple' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save Question' }));
    const none = await within(card).findByRole('listitem', { name: 'Option None of the Above' });
    expect((within(none).getByLabelText('Label', { exact: true }) as HTMLInputElement).value).toBe('None of the Above');
    // The new (empty) page is offered as a target from other pages; Birth (all dob) is not.
    fireEvent.click(screen.getByRole('button', { name: 'About you' }));
    const yes = await screen.findByRole('listitem', { name: 'Option Yes' });
    expect(optionsOf(within(yes).getByLabelText('Transition', { exact: true }))).toEqual(['Next page', 'End of survey', 'Page: Habits', 'Page: New Page 4']);
  });

  it('shows the SPEC error texts, the server’s message first, and keeps what was typed', async () => {
    const serverError = () => json({ errors: [{ status: '422', title: 'Invalid Attribute', detail: 'Survey is locked.' }] }, 422);
    const crash = () => new Response('oops', { status: 500 });
    const { handler } = surveyServer({
      'POST pages': serverError,
      'POST questions': crash,
      'POST options': crash,
      'PATCH questions/10': crash,
      'POST update-engagements-options/100': crash,
    });
    renderAdmin({ path: '/surveys/edit/5', user: admin, handler });
    const optionRow = await screen.findByRole('listitem', { name: 'Option Yes' });

    fireEvent.click(screen.getByRole('button', { name: 'Add Page' }));
    expect((await screen.findByText('Survey is locked. Could not add Page')).getAttribute('role')).toBe('alert');

    fireEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    await screen.findByText('Could not add Question');

    fireEvent.click(screen.getByRole('button', { name: 'Add Option' }));
    await screen.findByText('Could not add Option');

    const card = screen.getByRole('listitem', { name: 'Question 1' });
    fireEvent.change(within(card).getByLabelText('Question title', { exact: true }), { target: { value: 'Do you smoke daily?' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save Question' }));
    await within(card).findByText('Could not save data');
    expect((within(card).getByLabelText('Question title', { exact: true }) as HTMLInputElement).value).toBe('Do you smoke daily?');

    fireEvent.click(within(optionRow).getByRole('button', { name: 'Engagements' }));
    const overrides = await within(optionRow).findByRole('group', { name: 'Engagements of Yes' });
    fireEvent.click(await within(overrides).findByLabelText('Override for Second study'));
    fireEvent.click(within(overrides).getByRole('button', { name: 'Save Engagements' }));
    await within(overrides).findByText('Could not update option enagagements');
    expect((within(overrides).getByLabelText('Override for Second study') as HTMLInputElement).checked).toBe(true);
  });

  it('saves per-engagement settings of an option as one set', async () => {
    const { handler } = surveyServer();
    const { server } = renderAdmin({ path: '/surveys/edit/5', user: admin, handler });
    const optionRow = await screen.findByRole('listitem', { name: 'Option Yes' });
    fireEvent.click(within(optionRow).getByRole('button', { name: 'Engagements' }));
    const overrides = await within(optionRow).findByRole('group', { name: 'Engagements of Yes' });
    fireEvent.click(await within(overrides).findByLabelText('Override for Second study'));
    fireEvent.click(within(overrides).getByLabelText('Disqualifies for Second study'));
    fireEvent.change(within(overrides).getByLabelText('Weight for Second study'), { target: { value: '3' } });
    fireEvent.click(within(overrides).getByRole('button', { name: 'Save Engagements' }));
    await waitFor(() => expect(server.requests.some((r) => r.path === 'update-engagements-options/100')).toBe(true));
    const sent = server.requests.find((r) => r.path === 'update-engagements-options/100')!.body as { data: { attributes: object } };
    expect(sent.data.attributes).toEqual({ engagementOptions: [{ engagementId: 13, isDisqualified: true, weight: 3 }] });
  });
});
