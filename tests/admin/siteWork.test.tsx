import { describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { makeReferral } from './fixtures';
import { json, makeUser, renderAdmin, type Handler } from './helpers';

configure({ asyncUtilTimeout: 5000 });

const referral = makeReferral(7, {
  status: 'screen-failed',
  reasonId: 2,
  reasonName: 'Lab values out of range',
  statusChanged: '2026-11-21T10:00:00Z',
  firstContactAt: '2026-11-20T12:00:00Z',
  attempts: 2,
  lastAttemptAt: '2026-11-20T12:00:00Z',
  due: null,
  overdue: false,
  allowedStatuses: [],
});
const entry = (id: string, attributes: Record<string, unknown>) => ({
  type: 'referral-events',
  id,
  attributes: { actorName: null, fromStatus: null, toStatus: null, reasonName: null, channel: null, result: null, note: null, ...attributes },
});

describe('the referral view', () => {
  it('shows the timeline from the submission to the last status, and reveals the contact on a click', async () => {
    const handler: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'referrals/7') return json({ data: referral });
      if (path === 'referrals/7/timeline')
        return json({
          data: [
            entry('submitted-7', { kind: 'submitted', occurredAt: '2026-11-20T09:50:00Z' }),
            entry('qualified-7', { kind: 'qualified', occurredAt: '2026-11-20T09:55:00Z' }),
            entry('made-7', { kind: 'made', occurredAt: '2026-11-20T10:00:00Z', toStatus: 'new' }),
            entry('delivery-1', { kind: 'delivery', occurredAt: '2026-11-20T10:01:00Z', actorName: 'Acme RMS', channel: 'attempt 1', result: 'delivered' }),
            entry('1', { kind: 'attempt', occurredAt: '2026-11-20T11:00:00Z', actorName: 'coord', channel: 'phone', result: 'no-answer' }),
            entry('2', {
              kind: 'status',
              occurredAt: '2026-11-21T10:00:00Z',
              actorName: 'coord',
              fromStatus: 'in-screening',
              toStatus: 'screen-failed',
              reasonName: 'Lab values out of range',
            }),
          ],
          meta: { total: 6 },
        });
      if (path === 'referrals/7/reveal' && request.method === 'POST')
        return json({ data: { type: 'referral-contacts', id: '7', attributes: { values: { first_name: 'Ada', phone: '212-555-0100' } } } }, 201);
      return undefined;
    };
    const { server } = renderAdmin({ path: '/referrals/view/7', user: makeUser('Site Coordinator'), handler });
    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    const lines = within(timeline)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toContain('Survey started');
    expect(lines[3]).toContain('Delivery to Acme RMS (attempt 1): delivered');
    expect(lines[4]).toContain('Contact attempt by phone: No answer');
    expect(lines[5]).toContain('In screening → Screen failed (Lab values out of range)');
    expect(screen.queryByText('212-555-0100')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal contact' }));
    await screen.findByText('212-555-0100');
    expect(server.requests.filter((r) => r.path === 'referrals/7/reveal')).toHaveLength(1);
  });
});

describe('site performance', () => {
  it('shows each site with its rates, the date range in the URL', async () => {
    const handler: Handler = (_request, url) => {
      if (url.pathname !== '/api/site-performance') return undefined;
      return json({
        data: [
          {
            type: 'site-performance',
            id: '4',
            attributes: {
              siteName: 'Hoboken Heart Center',
              referrals: 10,
              reached: 8,
              medianHoursToFirstContact: 20.5,
              dueForFirstContact: 9,
              withinServiceLevel: 6,
              withinServiceLevelRate: 6 / 9,
              screened: 5,
              screenFailed: 2,
              screenFailRate: 0.4,
              randomized: 2,
              randomizationRate: 0.2,
            },
          },
        ],
        meta: { total: 1, page: 1, limit: 20 },
      });
    };
    const { server } = renderAdmin({ path: '/site-performance?from=2026-11-01&to=2026-11-30', user: makeUser('User'), handler });
    const table = await screen.findByRole('table', { name: 'Site performance' });
    const row = await within(table).findByText('Hoboken Heart Center');
    const cells = within(row.closest('tr')!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(expect.arrayContaining(['10', '20.5 h', '66.7% (6 of 9)', '40.0% (2 of 5)', '20.0% (2)']));
    const asked = server.requests.find((r) => r.path === 'site-performance')!;
    expect(Object.fromEntries(asked.query)).toMatchObject({ from: '2026-11-01', to: '2026-11-30' });
  });
});

describe('site coordinators on the site view', () => {
  it('lists the coordinators and ties a Site Coordinator to the site', async () => {
    const tied: { userId: number; username: string }[] = [];
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'site-locations/4') return json({ data: { type: 'site-locations', id: '4', attributes: { name: 'Hoboken Heart Center', isActive: true } } });
      if (path === 'engagements') return json({ data: [], meta: { total: 0 } });
      if (path === 'site-coordinators' && request.method === 'GET')
        return json({
          data: tied.map((c) => ({ type: 'site-coordinators', id: `4-${c.userId}`, attributes: { ...c, email: null, isActive: true, siteLocationId: 4 } })),
          meta: { total: tied.length },
        });
      if (path === 'site-coordinators' && request.method === 'POST') {
        const body = (await request.json()) as { data: { attributes: { userId: number } } };
        tied.push({ userId: body.data.attributes.userId, username: 'hoboken.coord' });
        return json({ data: { type: 'site-coordinators', id: `4-${body.data.attributes.userId}`, attributes: body.data.attributes } }, 201);
      }
      if (path === 'users')
        return json({
          data: [
            {
              type: 'users',
              id: '21',
              attributes: { username: 'hoboken.coord', isActive: true },
              relationships: { roles: { data: [{ type: 'roles', id: '4' }] } },
            },
            {
              type: 'users',
              id: '22',
              attributes: { username: 'plain.user', isActive: true },
              relationships: { roles: { data: [{ type: 'roles', id: '3' }] } },
            },
          ],
          included: [
            { type: 'roles', id: '4', attributes: { name: 'Site Coordinator' } },
            { type: 'roles', id: '3', attributes: { name: 'User' } },
          ],
          meta: { total: 2 },
        });
      return undefined;
    };
    const { server } = renderAdmin({ path: '/site-locations/view/4', user: makeUser('Admin'), handler });
    const select = (await screen.findByLabelText('Add a coordinator')) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.textContent)).toEqual(['Choose a Site Coordinator…', 'hoboken.coord']));
    fireEvent.change(select, { target: { value: '21' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add coordinator' }));
    const table = await screen.findByRole('table', { name: 'Site coordinators' });
    await within(table).findByRole('cell', { name: 'hoboken.coord' });
    expect(within(table).getByRole('button', { name: 'Remove hoboken.coord' })).toBeTruthy();
    const posted = server.requests.find((r) => r.path === 'site-coordinators' && r.method === 'POST')!;
    expect(posted.body).toMatchObject({ data: { type: 'site-coordinators', attributes: { siteLocationId: 4, userId: 21 } } });
  });
});
