/**
 * What every list screen shares (components/list), tried on the sponsors list: filters kept in
 * the URL and cleared at once, Export CSV asking the list route for CSV with the shown columns,
 * columns hidden per user and remembered, and bulk actions with one confirmation, per-row
 * failures and Undo. Also the History panel of a view screen and the toasts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { captureSavedFiles, json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';
import { makeSponsor } from './fixtures';
import { SPONSOR_LABELS } from '../../admin/sections/sponsors/sponsorValues';
import { formatDateTime } from '../../admin/components/format';

const WAIT = { timeout: 5000 };
const admin = makeUser('Admin', { id: '7' });

/** Sponsors 1..total; PATCHes answered from `patch`, recorded in `patched`. */
function sponsorsServer(options: { total?: number; patched?: { id: string; isActive: unknown }[]; refuse?: Record<string, string> } = {}): Handler {
  const total = options.total ?? 5;
  const state = new Map(Array.from({ length: total }, (_, i) => [String(i + 1), makeSponsor(i + 1)]));
  return async (request, url) => {
    const member = /^\/api\/sponsors\/(\d+)$/.exec(url.pathname);
    if (member && request.method === 'PATCH') {
      const id = member[1]!;
      const body = (await request.json()) as { data: { attributes: { isActive: boolean } } };
      options.patched?.push({ id, isActive: body.data.attributes.isActive });
      const refusal = options.refuse?.[id];
      if (refusal) return json({ errors: [{ status: '409', title: 'Conflict', detail: refusal }] }, 409);
      const next = { ...state.get(id)!, isActive: body.data.attributes.isActive };
      state.set(id, next);
      return json(resourceDocument('sponsors', next as unknown as Record<string, unknown>));
    }
    if (member && request.method === 'GET') return json(resourceDocument('sponsors', state.get(member[1]!) as unknown as Record<string, unknown>));
    if (url.pathname !== '/api/sponsors') return undefined;
    if (request.headers.get('accept') === 'text/csv') {
      return new Response('id,name,totalReferrals,piName\r\n1,Sponsor 1,3,x\r\n', {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="sponsors-2026-11-23.csv"' },
      });
    }
    const active = url.searchParams.get('isActive');
    const rows = [...state.values()].filter((s) => active === null || String(s.isActive) === active);
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    return json(listDocument('sponsors', rows.slice((page - 1) * limit, page * limit), rows.length));
  };
}

const listRequests = (requests: { method: string; path: string; query: URLSearchParams }[]) =>
  requests.filter((r) => r.method === 'GET' && r.path === 'sponsors').map((r) => Object.fromEntries(r.query));

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('list filters', () => {
  it('reads a filter from the URL, sends it, changes it back on page 1, and clears filters and search at once', async () => {
    const { server, location } = renderAdmin({ path: '/sponsors?isActive=false&page=2&searchQuery=acme', user: admin, handler: sponsorsServer() });
    await screen.findByRole('table', { name: 'Sponsors' }, WAIT);
    await waitFor(() => expect(listRequests(server.requests).at(-1)).toMatchObject({ isActive: 'false', page: '2', searchQuery: 'acme' }));
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect(status.value).toBe('false');

    fireEvent.change(status, { target: { value: 'true' } });
    await waitFor(() => expect(location()).toBe('/sponsors?isActive=true&searchQuery=acme'));
    await waitFor(() => expect(listRequests(server.requests).at(-1)).toMatchObject({ isActive: 'true', page: '1' }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location()).toBe('/sponsors'));
    await waitFor(() => expect(listRequests(server.requests).at(-1)).toEqual({ page: '1', limit: '20', sort: '-isActive,name' }));
    expect((screen.getByRole('button', { name: 'Clear filters' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when nothing matches the filters', async () => {
    const { server } = renderAdmin({ path: '/sponsors?isActive=false', user: admin, handler: sponsorsServer() });
    expect(await screen.findByText('Nothing matches these filters.', undefined, WAIT)).toBeTruthy();
    expect(listRequests(server.requests).at(-1)?.isActive).toBe('false');
  });
});

describe('Export CSV', () => {
  it('asks the list route for CSV with the filters, sort and the shown columns (no page or limit: every page), and saves the file', async () => {
    const created = captureSavedFiles();
    const accepts: (string | null)[] = [];
    const inner = sponsorsServer();
    const handler: Handler = (request, url) => {
      if (url.pathname === '/api/sponsors') accepts.push(request.headers.get('accept'));
      return inner(request, url);
    };
    const { server } = renderAdmin({ path: '/sponsors?isActive=true&sort=name&limit=10', user: admin, handler });
    await screen.findByRole('table', { name: 'Sponsors' }, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Downloaded sponsors-2026-11-23.csv.', undefined, WAIT)).toBeTruthy();
    const exportRequest = server.requests.filter((r) => r.path === 'sponsors').at(-1)!;
    expect(accepts.at(-1)).toBe('text/csv');
    expect(Object.fromEntries(exportRequest.query)).toEqual({
      isActive: 'true',
      sort: 'name',
      fields:
        'name,identification,countryName,isActive,modified,activeEngagements,totalEngagements,totalSites,totalReferrals,totalScreenedReferrals,totalRandomizedReferrals,duplicateReferrals',
    });
    // Headed as the screen's columns (a name without a column in words); the cells as the server sent them.
    const [heading, row] = (await created[0]!.text()).split('\r\n');
    // A column showing several attributes ('3 / 1 / 0') names each in words.
    expect(heading).toBe(`ID,${SPONSOR_LABELS.name},Total referrals,Pi name`);
    expect(row).toBe('1,Sponsor 1,3,x');
  });
});

describe('column control', () => {
  it('hides a column, remembers it for this user after a reload, and not for another user', async () => {
    const first = renderAdmin({ path: '/sponsors', user: admin, handler: sponsorsServer() });
    await screen.findByRole('columnheader', { name: /Identification/ }, WAIT);
    fireEvent.click(screen.getByRole('button', { name: 'Columns' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Identification' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Identification/ })).toBeNull());
    expect(screen.getByRole('button', { name: 'Columns (7/8)' })).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem('trial-recruit:hidden-columns:7:sponsors') ?? '[]')).toEqual(['identification']);
    first.unmount();

    renderAdmin({ path: '/sponsors', user: admin, handler: sponsorsServer() });
    await screen.findByRole('columnheader', { name: /Name/ }, WAIT);
    expect(screen.queryByRole('columnheader', { name: /Identification/ })).toBeNull();
    // The export asks for the shown columns only.
    expect(screen.getByRole('columnheader', { name: /Country/ })).toBeTruthy();
  });

  it("keeps other users' choices apart", async () => {
    window.localStorage.setItem('trial-recruit:hidden-columns:8:sponsors', JSON.stringify(['identification']));
    renderAdmin({ path: '/sponsors', user: admin, handler: sponsorsServer() });
    expect(await screen.findByRole('columnheader', { name: /Identification/ }, WAIT)).toBeTruthy();
  });
});

describe('bulk actions', () => {
  it('deactivates the selected rows after one confirmation, lists the row that failed with its reason, and undoes the rest', async () => {
    const patched: { id: string; isActive: unknown }[] = [];
    renderAdmin({ path: '/sponsors', user: admin, handler: sponsorsServer({ patched, refuse: { '2': 'Sponsor 2 is locked by its record system.' } }) });
    await screen.findByText('Sponsor 3', undefined, WAIT);
    for (const name of ['Sponsor 1', 'Sponsor 2', 'Sponsor 3']) fireEvent.click(screen.getByRole('checkbox', { name: `Select ${name}` }));
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(within(bar).getByText('3 sponsors selected')).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate 3 sponsors?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));

    const report = await screen.findByRole('alert', undefined, WAIT);
    expect(report.textContent).toContain('2 sponsors deactivated; 1 could not be deactivated:');
    expect(within(report).getByText('Sponsor 2').closest('li')?.textContent).toBe('Sponsor 2: Sponsor 2 is locked by its record system.');
    expect(patched.map((p) => p.id).sort()).toEqual(['1', '2', '3']);
    // The failed row stays selected.
    expect(within(screen.getByRole('region', { name: 'Selected rows' })).getByText('1 sponsor selected')).toBeTruthy();

    const toast = await screen.findByText('2 sponsors deactivated.');
    fireEvent.click(within(toast.closest('.notice') as HTMLElement).getByRole('button', { name: 'Undo' }));
    await waitFor(
      () =>
        expect(
          patched
            .filter((p) => p.isActive === true)
            .map((p) => p.id)
            .sort(),
        ).toEqual(['1', '3']),
      WAIT,
    );
    expect(await screen.findByText('Undone: 2 sponsors back as they were.')).toBeTruthy();
  });

  it('acts on every row matching the filters, read a thousand at a time, skipping rows already as asked', async () => {
    const patched: { id: string; isActive: unknown }[] = [];
    const { server } = renderAdmin({ path: '/sponsors?limit=10', user: admin, handler: sponsorsServer({ total: 25, patched }) });
    await screen.findByText('Sponsor 10', undefined, WAIT);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 25 matching' }));
    expect(screen.getByText('All 25 sponsors matching selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Activate' }));
    // Every sponsor is active already: nothing to send.
    expect(await screen.findByText(/0 sponsors activated, 25 already activated/, undefined, WAIT)).toBeTruthy();
    expect(patched).toEqual([]);
    expect(listRequests(server.requests).some((q) => q.limit === '1000' && q.page === '1')).toBe(true);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all 25 matching' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(patched).toHaveLength(25), WAIT);
    expect(new Set(patched.map((p) => p.id)).size).toBe(25);
  });

  it('offers Delete to Admins, not to Users, who may not delete sponsors', async () => {
    const user = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler: sponsorsServer() });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Sponsor 1' }, WAIT));
    expect(screen.getByRole('button', { name: 'Deactivate' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    user.unmount();
    renderAdmin({ path: '/sponsors', user: admin, handler: sponsorsServer() });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Select Sponsor 1' }, WAIT));
    expect(within(screen.getByRole('region', { name: 'Selected rows' })).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });
});

describe('unsaved changes', () => {
  it('asks before leaving a changed form, stays on Stay, leaves on Leave, and never asks after a save', async () => {
    const handler: Handler = (request, url) => {
      if (url.pathname === '/api/countries') return json(listDocument('countries', []));
      if (url.pathname === '/api/sponsors' && request.method === 'GET') return json(listDocument('sponsors', []));
      if (url.pathname === '/api/sponsors' && request.method === 'POST')
        return json(resourceDocument('sponsors', makeSponsor(9) as unknown as Record<string, unknown>), 201);
      if (url.pathname === '/api/sponsors/9') return json(resourceDocument('sponsors', makeSponsor(9) as unknown as Record<string, unknown>));
      return undefined;
    };
    const { router, location } = renderAdmin({ path: '/sponsors/add', user: admin, handler });
    // A navigation shows the screen it leaves until the next one has loaded: wait for the screens
    // themselves, not only the location.
    const engagementsShown = () => screen.findByRole('heading', { level: 1, name: 'Engagements' }, WAIT);
    const sponsorForm = async () => {
      await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: 'Engagements' })).toBeNull(), WAIT);
      await screen.findByRole('button', { name: 'Save' }, WAIT);
    };
    const name = await screen.findByLabelText(/^Name/, undefined, WAIT);

    // Untouched: leaving asks nothing.
    await router.navigate('/engagements');
    await waitFor(() => expect(location()).toBe('/engagements'));
    await engagementsShown();
    await router.navigate('/sponsors/add');

    await sponsorForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Half typed' } });
    void router.navigate('/engagements');
    let dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(location()).toBe('/sponsors/add');
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe('Half typed');

    // Reload or closing the tab: the browser's own prompt is asked for.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    void router.navigate('/engagements');
    dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(location()).toBe('/engagements'));
    await engagementsShown();

    // Saved: the form goes to the new sponsor without asking.
    await router.navigate('/sponsors/add');
    await sponsorForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Saved Pharma' } });
    fireEvent.change(screen.getByLabelText(/^Identification/), { target: { value: 'SAVED' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/sponsors/view/9'), WAIT);
    expect(screen.queryByRole('dialog')).toBeNull();
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
    expect(name).toBeTruthy();
  });
});

describe('History panel', () => {
  const events = [
    {
      id: 12,
      occurredAt: '2026-11-20T10:00:00Z',
      actorUsername: 'jane',
      action: 'update',
      entity: 'sponsors',
      entityId: '3',
      changes: {
        name: { old: 'Old Pharma', new: 'New Pharma' },
        isActive: { old: true, new: false },
        contractEnds: { old: '2026-12-31T15:30:00Z', new: null },
        therapeuticAreas: { old: ['Oncology'], new: ['Neurology', 'Oncology'] },
      },
      meta: {},
    },
    {
      id: 4,
      occurredAt: '2026-11-01T09:00:00Z',
      actorUsername: 'admin',
      action: 'create',
      entity: 'sponsors',
      entityId: '3',
      changes: { name: { old: null, new: 'Old Pharma' } },
      meta: {},
    },
  ];
  const handler: Handler = (_request, url) => {
    if (url.pathname === '/api/sponsors/3') return json(resourceDocument('sponsors', makeSponsor(3) as unknown as Record<string, unknown>));
    if (url.pathname === '/api/audit-events') return json(listDocument('audit-events', events, 2));
    if (url.pathname === '/api/engagements' || url.pathname === '/api/screeners') return json(listDocument(url.pathname.slice(5), []));
    return undefined;
  };

  it("shows an Admin the record's changes, newest first, old → new, once opened", async () => {
    const { server } = renderAdmin({ path: '/sponsors/view/3', user: admin, handler });
    const panel = (await screen.findByRole('heading', { name: 'History' }, WAIT)).closest('section')!;
    expect(server.requests.some((r) => r.path === 'audit-events')).toBe(false);
    fireEvent.click(within(panel).getByRole('button', { name: 'Show history' }));
    await within(panel).findByText('Changed', undefined, WAIT);
    const query = Object.fromEntries(server.requests.find((r) => r.path === 'audit-events')!.query);
    expect(query).toMatchObject({ entity: 'sponsors', entityId: '3', sort: '-id', page: '1', limit: '10' });
    const items = within(panel).getAllByRole('listitem');
    expect(items[0]!.textContent).toContain('Changed by jane');
    // Fields named as the screen labels them (or in words), times in local time, lists by their names.
    expect(items[0]!.textContent).toContain(`${SPONSOR_LABELS.name}Old Pharma → New Pharma`);
    expect(items[0]!.textContent).toContain(`${SPONSOR_LABELS.isActive}Yes → No`);
    expect(items[0]!.textContent).toContain(`Contract ends${formatDateTime('2026-12-31T15:30:00Z')} → —`);
    expect(items[0]!.textContent).toContain('Therapeutic areasOncology → Neurology, Oncology');
    expect(items[0]!.textContent).not.toMatch(/isActive|2026-12-31T/);
    expect(items[1]!.textContent).toContain('Created by admin');
  });

  it('is not shown to a User', async () => {
    renderAdmin({ path: '/sponsors/view/3', user: makeUser('User'), handler });
    await screen.findByRole('heading', { name: 'Engagements' }, WAIT);
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
  });
});
