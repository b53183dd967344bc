import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler, type Recorded } from './helpers';
import { COUNTRIES, makeSponsor } from './fixtures';

const user = makeUser('User');
// Only Admins and Super Users add sponsors.
const admin = makeUser('Admin');

interface Options {
  /** Identifications already held, and the id of the sponsor holding each. */
  taken?: Record<string, string>;
  /** What POST /api/sponsors answers. */
  created?: () => Response;
}

function sponsorServer({ taken = {}, created }: Options = {}): Handler {
  return async (request, url) => {
    if (url.pathname === '/api/countries') return json(listDocument('countries', COUNTRIES));
    if (url.pathname === '/api/sponsors' && request.method === 'GET') {
      const identification = url.searchParams.get('uniqueIdentification') ?? '';
      const holder = taken[identification];
      const rows = holder ? [makeSponsor(Number(holder), { identification })] : [];
      return json(listDocument('sponsors', rows));
    }
    if (url.pathname === '/api/sponsors' && request.method === 'POST') {
      if (created) return created();
      const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
      return json(resourceDocument('sponsors', { ...makeSponsor(12), ...data.attributes, id: 12 }), 201);
    }
    if (url.pathname === '/api/sponsors/12' && request.method === 'GET') {
      return json(resourceDocument('sponsors', { ...makeSponsor(12, { name: 'Acme Pharma' }) }));
    }
    if (url.pathname === '/api/sponsors/5' && request.method === 'GET') {
      return json(
        resourceDocument('sponsors', { ...makeSponsor(5, { name: 'Beta Bio', identification: 'BB-1', countryId: 2, countryName: 'United States' }) }),
      );
    }
    if (url.pathname === '/api/sponsors/5' && request.method === 'PATCH') {
      const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
      return json(resourceDocument('sponsors', { ...makeSponsor(5), ...data.attributes, id: 5 }));
    }
    return undefined;
  };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const writes = (requests: Recorded[]) => requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');

describe('Sponsor form', () => {
  it('shows required messages beside the fields and sends nothing', async () => {
    const { server } = renderAdmin({ path: '/sponsors/add', user: admin, handler: sponsorServer() });
    await screen.findByLabelText('Name');
    save();
    await waitFor(() => expect(screen.getAllByText('This field is required.')).toHaveLength(2));
    const nameField = screen.getByLabelText('Name');
    const describedBy = nameField.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe('This field is required.');
    expect(server.requests.some((r) => r.query.has('uniqueIdentification'))).toBe(false);
    expect(writes(server.requests)).toHaveLength(0);
  });

  it('refuses an identification another sponsor holds', async () => {
    const { server } = renderAdmin({ path: '/sponsors/add', user: admin, handler: sponsorServer({ taken: { ACME: '99' } }) });
    await screen.findByLabelText('Name');
    type('Name', 'Acme Pharma');
    type('Identification', 'ACME');
    save();
    expect(await screen.findByText('This identification is already in use.')).toBeTruthy();
    expect(server.requests.find((r) => r.query.has('uniqueIdentification'))?.query.get('uniqueIdentification')).toBe('ACME');
    expect(writes(server.requests)).toHaveLength(0);
  });

  it('creates the sponsor with every field and opens its view', async () => {
    const { server, location } = renderAdmin({ path: '/sponsors/add', user: admin, handler: sponsorServer() });
    await screen.findByRole('option', { name: 'Canada' });
    type('Name', '  Acme Pharma ');
    type('Identification', 'ACME');
    type('RMS Sponsor Identifier', 'RMS-7');
    type('Description', 'Makes medicines.');
    type('Business Practice', '');
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: '1' } });
    fireEvent.click(screen.getByLabelText('Active'));
    save();
    await waitFor(() => expect(location()).toBe('/sponsors/view/12'));
    expect(await screen.findByText(/^Sponsor .+ added\.$/)).toBeTruthy();
    expect(writes(server.requests)[0]?.body).toEqual({
      data: {
        type: 'sponsors',
        attributes: {
          name: 'Acme Pharma',
          identification: 'ACME',
          rmsSponsorIdentifier: 'RMS-7',
          description: 'Makes medicines.',
          businessPractice: null,
          countryId: 1,
          isActive: false,
        },
      },
    });
    // The view: Home > Sponsors > the sponsor's name.
    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    await within(crumbs).findByText('Acme Pharma');
    expect(
      within(crumbs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Home', 'Sponsors', 'Acme Pharma']);
  });

  it('shows server errors: field errors beside their field, the rest in an alert', async () => {
    const created = () =>
      json(
        {
          errors: [
            { status: '409', title: 'Conflict', detail: 'Identification is taken.', source: { pointer: '/data/attributes/identification' } },
            { status: '409', title: 'Conflict', detail: 'Try another one.' },
          ],
        },
        409,
      );
    renderAdmin({ path: '/sponsors/add', user: admin, handler: sponsorServer({ created }) });
    await screen.findByLabelText('Name');
    type('Name', 'Acme');
    type('Identification', 'ACME');
    save();
    expect(await screen.findByText('Identification is taken.')).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('Try another one.');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('edits a sponsor: loads its values, saves a PATCH, keeps its own identification', async () => {
    const { server, location } = renderAdmin({ path: '/sponsors/edit/5', user, handler: sponsorServer({ taken: { 'BB-1': '5' } }) });
    const name = (await screen.findByLabelText('Name')) as HTMLInputElement;
    expect(name.value).toBe('Beta Bio');
    await waitFor(() => expect((screen.getByLabelText('Country') as HTMLSelectElement).value).toBe('2'));
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(crumbs)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Home', 'Sponsors', 'Beta Bio', 'Edit']);
    type('Name', 'Beta Biologics');
    save();
    await waitFor(() => expect(location()).toBe('/sponsors/view/5'));
    // Said, as for users and surveys.
    expect(await screen.findByText(/^Sponsor .+ saved\.$/)).toBeTruthy();
    const patch = writes(server.requests)[0];
    expect(patch?.method).toBe('PATCH');
    expect(patch?.body).toMatchObject({ data: { type: 'sponsors', id: '5', attributes: { name: 'Beta Biologics', countryId: 2 } } });
  });

  it('shows the NotFound text for a sponsor that does not exist', async () => {
    renderAdmin({ path: '/sponsors/view/404', user, handler: sponsorServer() });
    expect(await screen.findByText("Oops! The sponsor you're looking for is not here.")).toBeTruthy();
  });
});
