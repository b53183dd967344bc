import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { defaultScreenerStyles, emptyScreenerMessage, SCREENER_OUTCOMES } from '@core/model/screener';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, sentAttributes, type Handler, type Recorded } from './helpers';
import { makeSponsor } from './fixtures';

const admin = makeUser('Admin');
const LANGUAGES = [
  { id: 1, name: 'English', description: 'English', isoCode: 'en', isActive: true, isDefault: true, created: '', modified: '' },
  { id: 2, name: 'Español', description: 'Spanish', isoCode: 'es', isActive: true, isDefault: false, created: '', modified: '' },
];

function screenerRow(overrides: Record<string, unknown> = {}) {
  return {
    id: 5,
    title: 'Heart screener',
    description: null,
    sponsorId: 7,
    sponsorName: 'Acme Pharma',
    userId: 1,
    screenerType: 'super-screener',
    isActive: true,
    isLocked: false,
    isTest: false,
    isInterestVisible: false,
    translations: {},
    styles: defaultScreenerStyles(),
    messages: Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, emptyScreenerMessage()])),
    clonedFromId: null,
    engagements: [{ id: 12, name: 'Heart Study' }],
    languages: [],
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-01T10:00:00Z',
    ...overrides,
  };
}

const FIELDS = [
  { id: 31, label: 'First Name', name: 'first_name', required: true, fieldType: 'text' },
  { id: 32, label: 'Last Name', name: 'last_name', required: true, fieldType: 'text' },
  { id: 33, label: 'Email', name: 'email', required: false, fieldType: 'email' },
];

function screenerServer(attached: number[] = [31, 32, 33]): Handler {
  let current = [...attached];
  const links = () =>
    current.map((contactFieldId, weight) => {
      const f = FIELDS.find((x) => x.id === contactFieldId)!;
      return { id: 100 + contactFieldId, screenerId: 5, contactFieldId, weight, label: f.label, name: f.name, required: f.required, fieldType: f.fieldType };
    });
  return async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'screeners/5' && request.method === 'GET') return json(resourceDocument('screeners', screenerRow()));
    if (path === 'screeners/5' && request.method === 'PATCH') {
      const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
      return json(resourceDocument('screeners', screenerRow(data.attributes)));
    }
    if (path === 'sponsors/7') return json(resourceDocument('sponsors', { ...makeSponsor(7, { name: 'Acme Pharma', identification: 'ACME' }) }));
    if (path === 'engagements') return json(listDocument('engagements', [{ id: 12, name: 'Heart Study' }]));
    if (path === 'languages') return json(listDocument('languages', LANGUAGES));
    if (path === 'contact-fields') return json(listDocument('contact-fields', FIELDS));
    if (path === 'contact-fields-screeners') return json(listDocument('contact-fields-screeners', links()));
    if (path === 'contact-fields-screeners/update/5' && request.method === 'POST') {
      // As the real server: JSON bodies only.
      if (!/^application\/vnd\.api\+json/.test(request.headers.get('Content-Type') ?? ''))
        return json({ errors: [{ status: '415', title: 'Unsupported Media Type' }] }, 415);
      const { data } = (await request.json()) as { data: { attributes: { contactFieldScreeners: { contactFieldId: number; weight: number }[] } } };
      current = [...data.attributes.contactFieldScreeners].sort((a, b) => a.weight - b.weight).map((l) => l.contactFieldId);
      return json(listDocument('contact-fields-screeners', links()));
    }
    if (path === 'media-channels' || path === 'screener-surveys') return json(listDocument(path, []));
    if (path === 'screener-surveys/flow/5') return json(resourceDocument('screener-flows', { id: 5, nodes: [], edges: [] }));
    return undefined;
  };
}

const writes = (requests: Recorded[]) => requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });

describe('Screener styles form', () => {
  it('keeps the Active, Test and Interest Visible flags in a row of their own, not under the lists', async () => {
    renderAdmin({ path: '/screeners/edit/5', user: admin, handler: screenerServer() });
    const active = await screen.findByLabelText('Active', { exact: true }, { timeout: 5000 });
    const group = active.closest('fieldset');
    expect(group?.classList.contains('span-2')).toBe(true);
    expect([...group!.querySelectorAll('input[type=checkbox]')].map((input) => input.getAttribute('name'))).toEqual([
      'isActive',
      'isTest',
      'isInterestVisible',
    ]);
  }, 20_000);

  it('shows a bad colour beside its field and sends nothing, then saves the nested styles', async () => {
    const { server, location } = renderAdmin({ path: '/screeners/edit/5', user: admin, handler: screenerServer() });
    await screen.findByLabelText('Next Button Active', { exact: true });
    expect((screen.getByLabelText('Progress Bar Background', { exact: true }) as HTMLInputElement).value).toBe('CCCCCC');

    type('Next Button Active', 'red');
    type('Checkbox Hover', 'ABC');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByText('Must be 6 or 2 hex characters.')).toHaveLength(2));
    expect(writes(server.requests)).toHaveLength(0);

    type('Next Button Active', 'ff0000');
    type('Checkbox Hover', '');
    type('Progress Bar Color', '00');
    fireEvent.click(screen.getByLabelText('Show Back Button', { exact: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(server.requests)).toHaveLength(1));
    const body = writes(server.requests)[0]!.body as {
      data: { attributes: { styles: Record<string, Record<string, unknown>> }; relationships: Record<string, unknown> };
    };
    expect(body.data.attributes.styles.nextButton).toEqual({ active: 'FF0000', error: null, hover: null });
    expect(body.data.attributes.styles.progressBar).toEqual({ background: 'CCCCCC', color: '00' });
    expect(body.data.attributes.styles.checkbox!.hover).toBeNull();
    expect(body.data.attributes.styles.backButton!.isShown).toBe(false);
    expect(body.data.relationships.engagements).toEqual({ data: [{ type: 'engagements', id: '12' }] });
    await waitFor(() => expect(location()).toBe('/screeners/view/5'));
  });

  it('offers message fields for each chosen additional language and sends them as translations', async () => {
    const { server } = renderAdmin({ path: '/screeners/edit/5', user: admin, handler: screenerServer() });
    const languages = await screen.findByRole('group', { name: 'Additional Languages' });
    expect(screen.queryByLabelText('Qualified Consent Message (Spanish)', { exact: true })).toBeNull();
    fireEvent.click(await within(languages).findByLabelText('Spanish (es)'));
    type('Qualified Consent Message', 'You qualify');
    type('Qualified Consent Message (Spanish)', 'Usted califica');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(server.requests)).toHaveLength(1));
    const body = writes(server.requests)[0]!.body as any;
    expect(body.data.attributes.messages.qualified).toEqual({
      consentMessage: 'You qualify',
      contactFormMessage: null,
      translations: { es: { consentMessage: 'Usted califica' } },
    });
    expect(body.data.relationships.languages).toEqual({ data: [{ type: 'languages', id: '2' }] });
  });
});

describe('Screener contact fields', () => {
  const order = () =>
    within(screen.getByRole('list', { name: 'Contact field order' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent?.split(' (')[0]?.replace('⋮⋮', '').trim());
  const posted = (requests: Recorded[]) =>
    requests
      .filter((r) => r.method === 'POST' && r.path === 'contact-fields-screeners/update/5')
      .map((r) => (r.body as any).data.attributes.contactFieldScreeners as { contactFieldId: number; weight: number }[]);

  it('reorders with the arrow buttons and by dragging, saving the whole list with new weights each time', async () => {
    const { server } = renderAdmin({ path: '/screeners/view/5', user: admin, handler: screenerServer() });
    await screen.findByRole('list', { name: 'Contact field order' });
    expect(order()).toEqual(['First Name', 'Last Name', 'Email']);
    expect((screen.getByRole('button', { name: 'Move First Name up' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Move Email up' }));
    await waitFor(() => expect(order()).toEqual(['First Name', 'Email', 'Last Name']));
    expect(posted(server.requests)[0]).toEqual([
      { contactFieldId: 31, weight: 0 },
      { contactFieldId: 33, weight: 1 },
      { contactFieldId: 32, weight: 2 },
    ]);
    await screen.findByText('Moved Email to position 2.');

    const items = within(screen.getByRole('list', { name: 'Contact field order' })).getAllByRole('listitem');
    fireEvent.dragStart(items[0]!);
    fireEvent.dragOver(items[2]!);
    fireEvent.drop(items[2]!);
    await waitFor(() => expect(order()).toEqual(['Email', 'Last Name', 'First Name']));
    expect(posted(server.requests)[1]).toEqual([
      { contactFieldId: 33, weight: 0 },
      { contactFieldId: 32, weight: 1 },
      { contactFieldId: 31, weight: 2 },
    ]);
  });

  it('hides the reorder controls from a User', async () => {
    renderAdmin({ path: '/screeners/view/5', user: makeUser('User'), handler: screenerServer() });
    await screen.findByRole('list', { name: 'Contact field order' });
    expect(screen.queryByRole('button', { name: 'Move Email up' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});

describe('Contact field added from a screener', () => {
  it('creates the field, attaches it last to that screener and returns to the screener', async () => {
    const base = screenerServer([31]);
    const handler: Handler = async (request, url) => {
      if (url.pathname === '/api/contact-fields/' && request.method === 'POST') {
        const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
        FIELDS.push({ id: 34, label: String(data.attributes.label), name: String(data.attributes.name), required: false, fieldType: 'text' });
        return json(resourceDocument('contact-fields', { id: 34, ...data.attributes, translations: {}, created: '', modified: '' }), 201);
      }
      return base(request, url);
    };
    const { server, location } = renderAdmin({ path: '/contact-fields/add/5', user: admin, handler });
    await screen.findByLabelText('Name', { exact: true });
    type('Name', 'date_of_birth');
    type('Label', 'Date of birth');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/screeners/view/5'));
    const update = server.requests.find((r) => r.path === 'contact-fields-screeners/update/5');
    expect((update?.body as any).data.attributes.contactFieldScreeners).toEqual([
      { contactFieldId: 31, weight: 0 },
      { contactFieldId: 34, weight: 1 },
    ]);
    FIELDS.pop();
  });
});

describe('New survey from a screener', () => {
  it("offers only the screener's sponsor's engagements, preselects the screener's only one, then creates the survey and links it", async () => {
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'screeners/5') return json(resourceDocument('screeners', screenerRow()));
      if (path === 'engagements') {
        const all = [
          { id: 12, name: 'Heart Study', sponsorId: 7, sponsorName: 'Acme Pharma' },
          { id: 13, name: 'Lung Study', sponsorId: 8, sponsorName: 'Beta Bio' },
        ];
        const sponsorId = url.searchParams.get('sponsorId');
        return json(listDocument('engagements', sponsorId ? all.filter((e) => String(e.sponsorId) === sponsorId) : all));
      }
      if (path === 'o-forms/o-forms' && request.method === 'POST') {
        return json(
          resourceDocument('o-forms', {
            id: 40,
            identity: 'new-survey',
            version: 1,
            title: 'Heart intake',
            isActive: true,
            isApproved: false,
            engagementId: '12',
          }),
          201,
        );
      }
      if (path === 'screener-surveys' && request.method === 'POST') {
        return json(resourceDocument('screener-surveys', { id: 90, screenerId: 5, oFormIdentity: 'new-survey', isActive: true, displayOrder: 0 }), 201);
      }
      return undefined;
    };
    const { server, location } = renderAdmin({ path: '/surveys-new/add/5', user: makeUser('Admin'), handler });
    const engagement = await screen.findByLabelText(/^Engagement/, undefined, { timeout: 5000 });
    await waitFor(
      () => expect([...(engagement as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose an engagement', 'Heart Study (Acme Pharma)']),
      { timeout: 5000 },
    );
    expect(server.requests.filter((r) => r.path === 'engagements').every((r) => r.query.get('sponsorId') === '7')).toBe(true);

    // The screener serves Heart Study alone: the new survey is for it unless the user chooses otherwise.
    expect((engagement as HTMLSelectElement).value).toBe('12');
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Heart intake' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/surveys-new/edit/40'), { timeout: 5000 });
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, sentAttributes(r)])).toEqual([
      ['o-forms/o-forms', { title: 'Heart intake', engagementId: 12, isActive: true }],
      ['screener-surveys', { screenerId: 5, oFormIdentity: 'new-survey', cloneSurvey: false }],
    ]);
  }, 20_000);
});

describe('Surveys of a screener, by title', () => {
  const surveys = [
    { id: 40, identity: 'a1b2-heart', version: 2, title: 'Heart check', isActive: true, isApproved: true },
    { id: 41, identity: 'c3d4-lung', version: 1, title: 'Lung check', isActive: true, isApproved: false },
  ];
  const links: Record<string, unknown>[] = [
    { id: 90, screenerId: 5, oFormIdentity: 'c3d4-lung', isActive: true, displayOrder: 0, title: 'Lung check', version: 1, isApproved: false },
  ];
  const handler: Handler = async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'screeners/5') return json(resourceDocument('screeners', screenerRow()));
    if (path === 'screener-surveys' && request.method === 'GET') return json(listDocument(path, links));
    if (path === 'screener-surveys' && request.method === 'POST') {
      links.push({ id: 91, screenerId: 5, oFormIdentity: 'a1b2-heart', isActive: true, displayOrder: 0, title: 'Heart check', version: 2, isApproved: true });
      return json(resourceDocument(path, links[1]!), 201);
    }
    if (path === 'o-forms/o-forms') {
      const q = (url.searchParams.get('searchQuery') ?? '').toLowerCase();
      return json(
        listDocument(
          'o-forms',
          surveys.filter((s) => s.title.toLowerCase().includes(q)),
        ),
      );
    }
    return undefined;
  };

  it("searches the sponsor's surveys by title, adds the one picked and lists surveys by title, never by identity", async () => {
    const { server, container } = renderAdmin({ path: '/screeners/associate-surveys/5', user: admin, handler });
    await screen.findByRole('button', { name: 'Remove Lung check (version 1, not approved)' }, { timeout: 5000 });
    const box = screen.getByRole('combobox', { name: 'Survey' });
    expect(screen.queryByLabelText('Survey identity')).toBeNull();
    fireEvent.change(box, { target: { value: 'check' } });
    // Surveys the screener has already are not offered again.
    const listbox = await screen.findByRole('listbox', { name: 'Survey options' });
    await waitFor(() =>
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Heart check (version 2, approved)']),
    );
    const search = server.requests.filter((r) => r.path === 'o-forms/o-forms').at(-1)!;
    expect(Object.fromEntries(search.query)).toMatchObject({ currentOnly: 'true', sponsorId: '7', searchQuery: 'check' });
    // Keyboard: down to the option and Enter.
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((box as HTMLInputElement).value).toBe('Heart check (version 2, approved)');
    fireEvent.click(screen.getByRole('button', { name: 'Add Survey' }));
    await screen.findByRole('button', { name: 'Remove Heart check (version 2, approved)' });
    const post = server.requests.find((r) => r.method === 'POST' && r.path === 'screener-surveys')!;
    expect(sentAttributes(post)).toEqual({ screenerId: 5, oFormIdentity: 'a1b2-heart', cloneSurvey: false });
    expect((box as HTMLInputElement).value).toBe('');
    expect(container.textContent).not.toMatch(/a1b2-heart|c3d4-lung/);
  }, 20_000);

  it('shows each survey once, by title, on the screener view', async () => {
    const view: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'media-channels' || path === 'contact-fields-screeners' || path === 'screener-messages') return json(listDocument(path, []));
      if (path.startsWith('screener-surveys/flow/')) return json(resourceDocument('screener-flows', { id: 5, nodes: [], edges: [] }));
      return handler(request, url);
    };
    const { container } = renderAdmin({ path: '/screeners/view/5', user: admin, handler: view });
    await screen.findByRole('button', { name: 'Deactivate Lung check (version 1, not approved)' }, { timeout: 5000 });
    expect(container.textContent).not.toContain('c3d4-lung');
  }, 20_000);

  it("shows the outcomes' messages as text, not as their HTML", async () => {
    const messages = Object.fromEntries(SCREENER_OUTCOMES.map((o) => [o, emptyScreenerMessage()]));
    messages.qualified = {
      consentMessage: '<p>We may <strong>call</strong> you.</p>',
      contactFormMessage: '<p>Leave your details</p><p>Thanks</p>',
      translations: { es: { consentMessage: '<p>Podemos llamarle.</p>', contactFormMessage: undefined } },
    };
    const view: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'screeners/5') return json(resourceDocument('screeners', screenerRow({ messages })));
      if (path === 'media-channels' || path === 'contact-fields-screeners' || path === 'screener-messages') return json(listDocument(path, []));
      if (path.startsWith('screener-surveys/flow/')) return json(resourceDocument('screener-flows', { id: 5, nodes: [], edges: [] }));
      return handler(request, url);
    };
    renderAdmin({ path: '/screeners/view/5', user: admin, handler: view });
    const table = await screen.findByRole('region', { name: 'Messages table' }, { timeout: 5000 });
    expect(table.textContent).toContain('We may call you.');
    expect(table.textContent).toContain('Leave your details Thanks');
    expect(table.textContent).toContain('es: Podemos llamarle.');
    expect(table.textContent).not.toContain('<p>');
  }, 20_000);
});
