import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REFRESH_MS } from '../../admin/sections/referrals/Index';
import { makeReferral } from './fixtures';
import { json, makeUser, renderAdmin, type Handler } from './helpers';

function server(state: { status: string }): Handler {
  return async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'referrals' && request.method === 'GET') {
      return json({ data: [makeReferral(7, { status: state.status })], meta: { total: 1, page: 1, limit: 20 } });
    }
    if (path === 'referral-reasons') {
      return json({
        data: [{ type: 'referral-reasons', id: '3', attributes: { name: 'Wrong contact details', status: 'not-reachable', isActive: true } }],
        meta: { total: 1, page: 1, limit: 100 },
      });
    }
    if (path === 'referrals/7' && request.method === 'PATCH') {
      const body = (await request.json()) as { data: { attributes: { status: string } } };
      state.status = body.data.attributes.status;
      return json({ data: makeReferral(7, { status: state.status }) });
    }
    if (path === 'engagements')
      return json({ data: [{ type: 'engagements', id: '3', attributes: { name: 'Heart Study' } }], meta: { total: 1, page: 1, limit: 1000 } });
    if (path === 'site-locations')
      return json({
        data: [{ type: 'site-locations', id: '4', attributes: { name: 'Boston General', siteId: 'B-1' } }],
        meta: { total: 1, page: 1, limit: 1000 },
      });
    if (path === 'referrals/7/contact-attempts' && request.method === 'POST')
      return json({ data: makeReferral(7, { status: 'attempting-contact', attempts: 1 }) }, 201);
    return undefined;
  };
}

describe('Referrals (the work queue)', () => {
  it('lists referrals by due with initials only, filters in the URL, and moves one with a reason', async () => {
    const state = { status: 'new' };
    const { server: api } = renderAdmin({ path: '/referrals?overdue=true', user: makeUser('User'), handler: server(state) });
    const table = await screen.findByRole('table');
    await within(table).findByText('AL');
    expect(within(table).getByText('Overdue')).toBeTruthy();
    const first = api.requests.find((r) => r.path === 'referrals')!;
    expect(first.query.get('sort')).toBe('due');
    expect(first.query.get('overdue')).toBe('true');

    fireEvent.change(screen.getByLabelText('New status for AL'), { target: { value: 'not-reachable' } });
    const reason = await screen.findByLabelText('Reason for AL');
    await within(reason).findByText('Wrong contact details');
    fireEvent.change(reason, { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(state.status).toBe('not-reachable'));
    const patch = api.requests.find((r) => r.path === 'referrals/7' && r.method === 'PATCH')!;
    expect(patch.body).toMatchObject({ data: { type: 'referrals', id: '7', attributes: { status: 'not-reachable', reasonId: 3 } } });
  });

  it("narrows by engagement and by that engagement's sites, in the URL", async () => {
    const { server: api, location } = renderAdmin({ path: '/referrals', user: makeUser('User'), handler: server({ status: 'new' }) });
    const engagement = (await screen.findByLabelText('Engagement')) as HTMLSelectElement;
    await within(engagement).findByText('Heart Study');
    fireEvent.change(engagement, { target: { value: '3' } });
    await waitFor(() => expect(location()).toBe('/referrals?engagementId=3'));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'referrals' && r.query.get('engagementId') === '3')).toBe(true));
    // The Site filter offers that engagement's sites.
    await waitFor(() => expect(api.requests.some((r) => r.path === 'site-locations' && r.query.get('engagementId') === '3')).toBe(true));
    const site = screen.getByLabelText('Site') as HTMLSelectElement;
    await within(site).findByText('Boston General (B-1)');
    fireEvent.change(site, { target: { value: '4' } });
    await waitFor(() => expect(location()).toBe('/referrals?engagementId=3&siteLocationId=4'));
  });

  it('offers a Site Coordinator no engagement or site list the server would refuse them', async () => {
    const { server: api } = renderAdmin({ path: '/referrals', user: makeUser('Site Coordinator'), handler: server({ status: 'new' }) });
    await screen.findByRole('table');
    expect(screen.queryByLabelText('Engagement')).toBeNull();
    expect(api.requests.some((r) => r.path === 'engagements' || r.path === 'site-locations')).toBe(false);
  });

  it('logs a call with its result', async () => {
    const { server: api } = renderAdmin({ path: '/referrals', user: makeUser('User'), handler: server({ status: 'new' }) });
    await screen.findByLabelText('Attempt result for AL');
    fireEvent.click(screen.getByRole('button', { name: 'Log call' }));
    await waitFor(() => expect(api.requests.some((r) => r.path === 'referrals/7/contact-attempts')).toBe(true));
    const posted = api.requests.find((r) => r.path === 'referrals/7/contact-attempts')!;
    expect(posted.body).toMatchObject({ data: { type: 'contact-attempts', attributes: { channel: 'phone', result: 'no-answer' } } });
  });

  it('shows a change made elsewhere within 15 seconds, without a reload', async () => {
    expect(REFRESH_MS).toBeLessThanOrEqual(15_000);
    const state = { status: 'new' };
    renderAdmin({ path: '/referrals', user: makeUser('Site Coordinator'), handler: server(state) });
    const table = await screen.findByRole('table');
    const badge = () => table.querySelector('td .badge[class*="referral-"]')?.textContent;
    await waitFor(() => expect(badge()).toBe('New'));
    // Another coordinator's move, made on the server.
    state.status = 'contacted';
    await waitFor(() => expect(badge()).toBe('Contacted'), { timeout: 15_000 });
  }, 20_000);
});
