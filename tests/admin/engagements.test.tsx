import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, sentAttributes, type Handler, type Recorded } from './helpers';
import { makeSponsor } from './fixtures';

const admin = makeUser('Admin');

const LOOKUPS: Record<string, { id: string; name: string }[]> = {
  'campaign-types': [{ id: '1', name: 'Digital Media' }],
  'target-groups': [{ id: '2', name: 'Adults' }],
  'therapeutic-areas': [
    { id: '3', name: 'Oncology' },
    { id: '4', name: 'Neurology' },
  ],
  'rms-providers': [{ id: '5', name: 'Default record system' }],
  indications: [{ id: '6', name: 'Asthma' }],
};

function engagementRow(id: number, overrides: Record<string, unknown> = {}) {
  return {
    id,
    name: `Study ${id}`,
    description: null,
    sponsorId: 7,
    sponsorName: 'Acme Pharma',
    sponsorIdentification: 'ACME',
    identification: `E-${id}`,
    fullIdentification: `ACME-E-${id}`,
    isActive: true,
    radius: 25,
    startDate: null,
    endDate: null,
    phase: null,
    created: '2024-05-01T10:00:00Z',
    modified: '2024-05-01T10:00:00Z',
    ...overrides,
  };
}

function engagementServer(options: { taken?: string[] } = {}): Handler {
  return async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'sponsors')
      return json(
        listDocument('sponsors', [
          makeSponsor(7, { name: 'Acme Pharma', identification: 'ACME' }),
          makeSponsor(8, { name: 'Beta Bio', identification: 'BETA' }),
        ]),
      );
    if (path === 'indications' && request.method === 'POST') {
      const { data } = (await request.json()) as { data: { attributes: { name: string } } };
      return json(resourceDocument('indications', { id: 60, name: data.attributes.name, isActive: true }), 201);
    }
    if (LOOKUPS[path]) return json(listDocument(path, LOOKUPS[path]!));
    if (path === 'users')
      return json({
        data: [
          { type: 'users', id: '21', attributes: { username: 'site.coord', isActive: true }, relationships: { roles: { data: [{ type: 'roles', id: '4' }] } } },
          { type: 'users', id: '22', attributes: { username: 'recruiter', isActive: true }, relationships: { roles: { data: [{ type: 'roles', id: '3' }] } } },
          { type: 'users', id: '23', attributes: { username: 'boss', isActive: true }, relationships: { roles: { data: [{ type: 'roles', id: '1' }] } } },
        ],
        included: [
          { type: 'roles', id: '4', attributes: { name: 'Site Coordinator' } },
          { type: 'roles', id: '3', attributes: { name: 'User' } },
          { type: 'roles', id: '1', attributes: { name: 'Admin' } },
        ],
        meta: { total: 3 },
      });
    if (path === 'engagements' && request.method === 'GET') {
      const unique = url.searchParams.get('uniqueIdentification');
      return json(listDocument('engagements', unique && options.taken?.includes(unique) ? [engagementRow(99, { identification: unique })] : []));
    }
    if (path === 'engagements' && request.method === 'POST') {
      const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
      return json(resourceDocument('engagements', engagementRow(12, data.attributes)), 201);
    }
    if (path === 'engagements/12' && request.method === 'PATCH') return json(resourceDocument('engagements', engagementRow(12)));
    if (path === 'engagements/12' && request.method === 'GET') return json(resourceDocument('engagements', engagementRow(12)));
    if (path === 'referrals/counts/12') return json(resourceDocument('referral-counts', { id: 12, total: 0, screened: 0, randomized: 0 }));
    if (path === 'engagements-site-locations' || path === 'engagements-o-files') return json(listDocument(path, []));
    return undefined;
  };
}

const writes = (requests: Recorded[]) => requests.filter((r) => r.method === 'POST' || r.method === 'PATCH');
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('Engagement form', () => {
  it('offers active Admins, Super Users and Users as the owner and sends the one chosen', async () => {
    const { server, location } = renderAdmin({ path: '/engagements/add/7', user: admin, handler: engagementServer() });
    await screen.findByRole('option', { name: 'recruiter' });
    const owner = screen.getByLabelText('Owner', { exact: true }) as HTMLSelectElement;
    expect([...owner.options].map((o) => o.textContent)).toEqual(['Me (the creator)', 'recruiter', 'boss']);
    type('Name', 'Heart Study');
    type('Identification', 'HS-1');
    type('Owner', '22');
    save();
    await waitFor(() => expect(location()).toBe('/engagements/view/12'));
    const [post] = writes(server.requests);
    expect(sentAttributes(post)).toMatchObject({ ownerUserId: 22 });
  });

  it('preselects the sponsor of the route, validates before sending, and refuses a taken identification', async () => {
    const { server } = renderAdmin({ path: '/engagements/add/8', user: admin, handler: engagementServer({ taken: ['TAKEN'] }) });
    await screen.findByRole('option', { name: 'Beta Bio (BETA)' });
    expect((screen.getByLabelText('Sponsor', { exact: true }) as HTMLSelectElement).value).toBe('8');
    type('Radius (miles)', '0');
    type('Start Date', '2025-05-01');
    type('End Date', '2025-04-01');
    save();
    await waitFor(() => expect(screen.getAllByText('This field is required.')).toHaveLength(2));
    expect(screen.getByText('Must be a number from 1 to 1000.')).toBeTruthy();
    expect(writes(server.requests)).toHaveLength(0);

    type('Name', 'Heart Study');
    type('Identification', 'TAKEN');
    type('Radius (miles)', '30');
    save();
    expect(await screen.findByText('Must not be before the start date.')).toBeTruthy();
    type('End Date', '2025-06-01');
    save();
    expect(await screen.findByText('This identification is already in use.')).toBeTruthy();
    expect(writes(server.requests)).toHaveLength(0);
  });

  it('creates the engagement, then sets the chosen lookups (and a new indication) with a PATCH', async () => {
    const { server, location } = renderAdmin({ path: '/engagements/add/7', user: admin, handler: engagementServer() });
    await screen.findByRole('option', { name: 'Acme Pharma (ACME)' });
    type('Name', 'Heart Study');
    type('Identification', 'HS-1');
    fireEvent.change(screen.getByLabelText('Phase'), { target: { value: 'III' } });
    fireEvent.click(within(screen.getByRole('group', { name: 'Therapeutic Areas' })).getByLabelText('Oncology'));
    fireEvent.click(within(screen.getByRole('group', { name: 'Campaign Types' })).getByLabelText('Digital Media'));
    fireEvent.change(screen.getByLabelText('New indication'), { target: { value: 'Lupus' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add indication' }));
    await waitFor(() => expect((within(screen.getByRole('group', { name: 'Indications' })).getByLabelText('Lupus') as HTMLInputElement).checked).toBe(true));
    save();
    await waitFor(() => expect(location()).toBe('/engagements/view/12'));
    expect(await screen.findByText(/^Engagement .+ added\.$/)).toBeTruthy();

    const [addIndication, post, patch] = writes(server.requests);
    expect(addIndication?.path).toBe('indications');
    expect(post).toMatchObject({ method: 'POST', path: 'engagements' });
    expect(sentAttributes(post)).toMatchObject({
      name: 'Heart Study',
      identification: 'HS-1',
      sponsorId: 7,
      radius: 25,
      phase: 'III',
    });
    expect(patch).toMatchObject({ method: 'PATCH', path: 'engagements/12' });
    expect((patch?.body as { data: { relationships: unknown } }).data.relationships).toEqual({
      campaignTypes: { data: [{ type: 'campaign-types', id: '1' }] },
      indications: { data: [{ type: 'indications', id: '60' }] },
      targetGroups: { data: [] },
      therapeuticAreas: { data: [{ type: 'therapeutic-areas', id: '3' }] },
    });
  });
});

describe('Engagement edit', () => {
  it('saves the changes with a PATCH and says so, as an added engagement does', async () => {
    const { server, location } = renderAdmin({ path: '/engagements/edit/12', user: admin, handler: engagementServer() });
    await waitFor(() => expect((screen.getByLabelText('Name', { exact: true }) as HTMLInputElement).value).toBe('Study 12'), { timeout: 5000 });
    type('Name', 'Study 12 renamed');
    save();
    await waitFor(() => expect(location()).toBe('/engagements/view/12'));
    // The name the server answered with.
    expect(await screen.findByText('Engagement Study 12 saved.')).toBeTruthy();
    expect(writes(server.requests)[0]).toMatchObject({ method: 'PATCH', path: 'engagements/12' });
  });
});

describe('Site locations screens', () => {
  it('are forbidden to a User', async () => {
    const { location } = renderAdmin({ path: '/site-locations', user: makeUser('User'), handler: () => undefined });
    await waitFor(() => expect(location()).toBe('/403'));
  });

  function uploadServer(answer: () => Response, requests: string[] = []): Handler {
    return (request, url) => {
      if (url.pathname === '/api/engagements/12') return json(resourceDocument('engagements', engagementRow(12)));
      if (url.pathname === '/api/engagements-site-locations/upload/12' && request.method === 'POST') {
        requests.push(request.headers.get('content-type') ?? '');
        return answer();
      }
      return undefined;
    };
  }

  const chooseAndUpload = async () => {
    const input = await screen.findByLabelText('Sites file (.csv or .xlsx)');
    fireEvent.change(input, { target: { files: [new File(['site_id,name\nA,B\n'], 'sites.csv', { type: 'text/csv' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
  };

  it('uploads the file as multipart and lists each bad row the server names', async () => {
    const types: string[] = [];
    const rows = [
      { status: '422', title: 'Invalid Row', detail: 'Row 3, name: This field is required.', source: { pointer: '/file' } },
      { status: '422', title: 'Invalid Row', detail: 'Row 4, latitude: Must be a number from -90 to 90.', source: { pointer: '/file' } },
    ];
    renderAdmin({ path: '/site-locations/upload/12', user: admin, handler: uploadServer(() => json({ errors: rows }, 422), types) });
    await chooseAndUpload();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Row 3, name: This field is required.')).toBeTruthy();
    expect(within(alert).getByText('Row 4, latitude: Must be a number from -90 to 90.')).toBeTruthy();
    expect(alert.textContent).toContain('Nothing was imported.');
    expect(types[0]).toMatch(/^multipart\/form-data; boundary=/);
  });

  it("shows SPEC's message on a server error", async () => {
    renderAdmin({ path: '/site-locations/upload/12', user: admin, handler: uploadServer(() => new Response('oops', { status: 500 })) });
    await chooseAndUpload();
    expect((await screen.findByRole('alert')).textContent).toBe('There was a server side error. Please contact your Administrator.');
  });

  it('reports what an accepted file did', async () => {
    renderAdmin({
      path: '/site-locations/upload/12',
      user: admin,
      handler: uploadServer(() => json({ meta: { rows: 2, createdSiteLocations: 1, linkedSiteLocations: 2, updatedLinks: 0 } })),
    });
    await chooseAndUpload();
    expect((await screen.findByText(/Imported 2 rows/)).textContent).toContain('Imported 2 rows: 1 new site location, 2 newly linked, 0 links updated.');
  });
});

describe('Sponsors', () => {
  it('lists the figures of each sponsor', async () => {
    const handler: Handler = (_r, url) =>
      url.pathname === '/api/sponsors'
        ? json(
            listDocument('sponsors', [
              makeSponsor(1, {
                activeEngagements: 2,
                totalEngagements: 3,
                totalSites: 4,
                totalReferrals: 9,
                totalScreenedReferrals: 5,
                totalRandomizedReferrals: 1,
              }),
            ]),
          )
        : undefined;
    renderAdmin({ path: '/sponsors', user: admin, handler });
    const row = (await screen.findByText('Sponsor 1')).closest('tr') as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(-4, -1)).toEqual(['2 / 3', '4', '9 / 5 / 1']);
    expect(screen.getByRole('columnheader', { name: 'Referrals (total / screened / randomized)' })).toBeTruthy();
  });

  it('shows the duplicates beside the referral total, not in it', async () => {
    const handler: Handler = (_r, url) =>
      url.pathname === '/api/sponsors'
        ? json(listDocument('sponsors', [makeSponsor(1, { totalReferrals: 9, totalScreenedReferrals: 5, totalRandomizedReferrals: 1, duplicateReferrals: 2 })]))
        : undefined;
    renderAdmin({ path: '/sponsors', user: admin, handler });
    const row = (await screen.findByText('Sponsor 1', undefined, { timeout: 15_000 })).closest('tr') as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.at(-2)).toBe('9 / 5 / 1 (+2 duplicates)');
  });

  it('shows why a sponsor with engagements cannot be deleted', async () => {
    const detail = 'This sponsor still has 2 engagements. Delete or move them before deleting the sponsor.';
    const handler: Handler = (request, url) => {
      if (url.pathname === '/api/sponsors/1' && request.method === 'DELETE') return json({ errors: [{ status: '409', title: 'Conflict', detail }] }, 409);
      if (url.pathname === '/api/sponsors/1') return json(resourceDocument('sponsors', { ...makeSponsor(1) }));
      if (url.pathname === '/api/engagements') return json(listDocument('engagements', [engagementRow(3, { sponsorId: 1 })]));
      return undefined;
    };
    const { location } = renderAdmin({ path: '/sponsors/view/1', user: admin, handler });
    expect(await screen.findByRole('link', { name: 'Study 3' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add Engagement' }).getAttribute('href')).toBe('/engagements/add/1');
    const deleteButtons = screen.getAllByRole('button', { name: 'Delete' });
    fireEvent.click(deleteButtons[0]!);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(detail)).toBeTruthy();
    expect(location()).toBe('/sponsors/view/1');
  });
});
