import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ERASE_CONFIRMATION } from '../../admin/sections/leads/Index';
import { expectRemovalConfirmed, json, makeUser, renderAdmin, type Handler } from './helpers';

const lead = {
  type: 'leads',
  id: '5',
  attributes: {
    kind: 'noTrialSites',
    engagementIds: [12],
    screenerId: 3,
    mediaChannelId: 9,
    surveyId: 2,
    surveyVersion: 1,
    language: 'es',
    zipCode: '99501',
    nearestSiteMiles: 3312.4,
    consentedAt: '2026-11-20T10:00:00Z',
    consentText: 'May we contact you when a study site opens near you?',
    consentTextSha256: 'ab'.repeat(32),
    duplicateOf: null,
    created: '2026-11-20T10:00:00Z',
  },
};

const server: Handler = async (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'leads' && request.method === 'GET') return json({ data: [lead], meta: { total: 1, page: 1, limit: 20 } });
  if (path === 'leads/5/reveal' && request.method === 'POST') return json({ meta: { values: { email: 'lee@example.com', first_name: 'Lee' } } });
  if (path === 'engagements')
    return json({ data: [{ type: 'engagements', id: '12', attributes: { name: 'Heart study' } }], meta: { total: 1, page: 1, limit: 1000 } });
  if (path === 'screeners')
    return json({ data: [{ type: 'screeners', id: '3', attributes: { title: 'Heart screener' } }], meta: { total: 1, page: 1, limit: 1000 } });
  if (path === 'media-channels')
    return json({ data: [{ type: 'media-channels', id: '9', attributes: { title: 'Partner page' } }], meta: { total: 1, page: 1, limit: 1000 } });
  return undefined;
};

describe('Leads', () => {
  it('lists leads with names for ids, filters in the URL, and reveals the contact values only when asked', async () => {
    const { server: api } = renderAdmin({ path: '/leads?kind=noTrialSites&withinReach=true', user: makeUser('User'), handler: server });
    const table = await screen.findByRole('table', { name: 'Leads' });
    await within(table).findByText('Heart study');
    expect(within(table).getByText('No trial sites')).toBeTruthy();
    expect(within(table).getByText('99501')).toBeTruthy();
    expect(within(table).getByText('3312.4 mi')).toBeTruthy();
    // The screener, the channel and the language of the run, beside the kind and the place.
    const row = within(table).getByText('Heart study').closest('tr')!;
    for (const shown of ['Heart screener', 'Partner page', 'es']) expect(within(row).getByText(shown)).toBeTruthy();
    const first = api.requests.find((r) => r.path === 'leads')!;
    expect(first.query.get('kind')).toBe('noTrialSites');
    expect(first.query.get('withinReach')).toBe('true');
    expect(api.requests.some((r) => r.path === 'leads/5/reveal')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Erase lead 5' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Reveal contact details of lead 5' }));
    await within(table).findByText('lee@example.com');
  });

  it('erases a lead for an Admin once confirmed, then loads the list again', async () => {
    const erased: string[] = [];
    const handler: Handler = (request, url) => {
      if (url.pathname === '/api/leads/5' && request.method === 'DELETE') {
        erased.push('5');
        return new Response(null, { status: 204 });
      }
      return server(request, url);
    };
    const { server: api } = renderAdmin({ path: '/leads', user: makeUser('Admin'), handler });
    const table = await screen.findByRole('table', { name: 'Leads' });
    await within(table).findByText('Heart study');
    await expectRemovalConfirmed({
      ask: () => fireEvent.click(screen.getByRole('button', { name: 'Erase lead 5' })),
      question: ERASE_CONFIRMATION('5'),
      confirm: 'Erase',
      removed: erased,
      expected: ['5'],
      lists: () => api.requests.filter((r) => r.method === 'GET' && r.path === 'leads').length,
      notice: 'Lead 5 erased.',
    });
  });

  it('shows a Site Coordinator their leads without asking for the lists they may not read', async () => {
    const { server: api } = renderAdmin({ path: '/leads', user: makeUser('Site Coordinator'), handler: server });
    const table = await screen.findByRole('table', { name: 'Leads' });
    await within(table).findByText('No trial sites');
    await waitFor(() => expect(api.requests.some((r) => r.path === 'leads')).toBe(true));
    expect(api.requests.filter((r) => ['engagements', 'screeners', 'media-channels'].includes(r.path))).toEqual([]);
  });
});
