import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expectRemovalConfirmed, json, listDocument, makeUser, renderAdmin, type Handler } from './helpers';
import { makeSponsor, sponsorViewServer } from './fixtures';

const TOTAL = 45;

/** A sponsors endpoint answering any page with rows numbered after it, and accepting deletes. */
function sponsorsServer(deleted: string[] = []): Handler {
  return (request, url) => {
    if (url.pathname.startsWith('/api/sponsors/') && request.method === 'DELETE') {
      deleted.push(url.pathname.split('/').pop() ?? '');
      return new Response(null, { status: 204 });
    }
    if (url.pathname !== '/api/sponsors') return undefined;
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit'));
    const first = (page - 1) * limit + 1;
    const rows = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - first + 1)) }, (_, i) => makeSponsor(first + i));
    return json(listDocument('sponsors', rows, TOTAL));
  };
}

const lastListQuery = (requests: { method: string; path: string; query: URLSearchParams }[]) => {
  const lists = requests.filter((r) => r.method === 'GET' && r.path === 'sponsors');
  return Object.fromEntries(lists[lists.length - 1]?.query ?? []);
};

describe('Sponsors index (list screen)', () => {
  it('loads the first page with the default sort and page size, in a real table', async () => {
    const { server } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler: sponsorsServer() });
    const table = await screen.findByRole('table', { name: 'Sponsors' });
    await within(table).findByText('Sponsor 1');
    expect(lastListQuery(server.requests)).toEqual({ page: '1', limit: '20', sort: '-isActive,name' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('Showing 1–20 of 45')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: /Active/ }).getAttribute('aria-sort')).toBe('descending');
    expect(server.requests[0]?.authorization).toBe('Bearer access-1');
  });

  it('toggles the sort of a column on each header click and keeps it in the URL', async () => {
    const { server, location } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler: sponsorsServer() });
    await screen.findByText('Sponsor 1');
    const nameHeader = () => screen.getByRole('columnheader', { name: /Name/ });

    fireEvent.click(within(nameHeader()).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(lastListQuery(server.requests).sort).toBe('name'));
    expect(nameHeader().getAttribute('aria-sort')).toBe('ascending');
    expect(location()).toBe('/sponsors?sort=name');

    fireEvent.click(within(nameHeader()).getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(lastListQuery(server.requests).sort).toBe('-name'));
    expect(nameHeader().getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: /Active/ }).getAttribute('aria-sort')).toBe('none');
  });

  it('pages, changes the page size back to page 1, and restores the state from the URL', async () => {
    const { server, location, router } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler: sponsorsServer() });
    await screen.findByText('Sponsor 1');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Sponsor 21');
    expect(lastListQuery(server.requests).page).toBe('2');
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('Showing 21–40 of 45')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    await waitFor(() => expect(lastListQuery(server.requests)).toMatchObject({ page: '1', limit: '50' }));
    expect(location()).toBe('/sponsors?limit=50');
    expect(await screen.findByText('Showing 1–45 of 45')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);

    // Back restores the previous page from the query string.
    router.navigate(-1);
    await waitFor(() => expect(location()).toBe('/sponsors?page=2'));
    await screen.findByText('Sponsor 21');
  });

  it('searches from the top bar once typing pauses, back on page 1', async () => {
    const { server, location } = renderAdmin({ path: '/sponsors?page=2', user: makeUser('User'), handler: sponsorsServer() });
    await screen.findByText('Sponsor 21');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'acme' } });
    await waitFor(() => expect(lastListQuery(server.requests)).toMatchObject({ page: '1', searchQuery: 'acme' }));
    expect(location()).toBe('/sponsors?searchQuery=acme');
  });

  it('deletes a row after confirmation and reloads the list', async () => {
    const deleted: string[] = [];
    const { server } = renderAdmin({ path: '/sponsors', user: makeUser('Admin'), handler: sponsorsServer(deleted) });
    const row = (await screen.findByText('Sponsor 2')).closest('tr') as HTMLElement;
    await expectRemovalConfirmed({
      ask: () => fireEvent.click(within(row).getByRole('button', { name: 'Delete' })),
      // SPEC's question, naming the row.
      question: 'Are you sure you want to delete this sponsor “Sponsor 2” ?',
      confirm: 'Confirm',
      removed: deleted,
      expected: ['2'],
      lists: () => server.requests.filter((r) => r.method === 'GET' && r.path === 'sponsors').length,
      notice: 'Sponsor deleted.',
    });
  });

  it('offers Add and Delete only to Admins and Super Users, who alone may create and delete sponsors', async () => {
    const handler = sponsorViewServer(2, sponsorsServer());
    // Screens load lazily; a busy machine may take a while.
    const slow = { timeout: 5000 };
    const asUser = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler });
    const row = (await screen.findByText('Sponsor 2', undefined, slow)).closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add' })).toBeNull();
    await asUser.router.navigate('/sponsors/view/2');
    await screen.findByText('Sponsor 2', { selector: '.object-title' }, slow);
    expect(screen.getByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    await asUser.router.navigate('/sponsors/add');
    await waitFor(() => expect(asUser.location()).toBe('/403'), slow);
    asUser.unmount();

    renderAdmin({ path: '/sponsors', user: makeUser('Super User'), handler });
    const adminRow = (await screen.findByText('Sponsor 2', undefined, slow)).closest('tr') as HTMLElement;
    expect(within(adminRow).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add' }).getAttribute('href')).toBe('/sponsors/add');
  });

  it('shows the empty state and a failed load', async () => {
    const handler: Handler = (_r, url) =>
      url.pathname === '/api/sponsors'
        ? url.searchParams.get('searchQuery')
          ? json({ errors: [{ status: '400', title: 'Bad Request', detail: 'Unknown filter.' }] }, 400)
          : json(listDocument('sponsors', [], 0))
        : undefined;
    const { router } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler });
    expect(await screen.findByText('No sponsors yet.')).toBeTruthy();
    await router.navigate('/sponsors?searchQuery=zzz');
    expect((await screen.findByRole('alert')).textContent).toContain('Unknown filter.');
  });
});
