/**
 * Sites from ClinicalTrials.gov on the engagement view, from an uploaded study record: the
 * record is previewed (new, changed, closed sites) and only then imported, each call carrying the
 * record itself; a file that is not JSON is refused before anything is sent. (The NCT number path
 * runs in Chromium: tests/e2e/clinicalTrialsGov.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, makeUser, renderAdmin, resourceDocument, type Handler, type Recorded } from './helpers';
import { makeEngagementAttributes } from './fixtures';

const engagement = { id: 12, ...makeEngagementAttributes() };

const RECORD = {
  protocolSection: {
    identificationModule: { nctId: 'NCT09990001', briefTitle: 'Sites study' },
    contactsLocationsModule: { locations: [{ facility: 'Princess Margaret Cancer Centre', city: 'Toronto', country: 'Canada' }] },
  },
};

const site = (name: string, city: string, status: string | null, isActive: boolean, changes?: string[]) => ({
  siteId: `NCT09990001-${city}`,
  name,
  city,
  state: null,
  zipCode: null,
  country: city === 'Toronto' ? 'Canada' : 'United States',
  status,
  isActive,
  ...(changes ? { changes } : {}),
});

const PLAN = {
  nctId: 'NCT09990001',
  title: 'Sites study',
  new: [site('Princess Margaret Cancer Centre', 'Toronto', 'NOT_YET_RECRUITING', true)],
  changed: [site('Chelsea Clinic', 'New York', 'RECRUITING', true, ['latitude', 'longitude'])],
  closed: [site('Roswell Park', 'Buffalo', 'COMPLETED', false)],
  unchanged: 2,
};

const server: Handler = (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'engagements/12' && request.method === 'GET') return json(resourceDocument('engagements', engagement));
  if (path === 'clinicaltrials-gov/preview/12' || path === 'clinicaltrials-gov/import/12') return json({ meta: PLAN });
  return undefined;
};

const ctgovCalls = (requests: Recorded[]) => requests.filter((r) => r.path.startsWith('clinicaltrials-gov/'));

const choose = (content: string, name: string) =>
  fireEvent.change(screen.getByLabelText('Study record file'), { target: { files: [new File([content], name, { type: 'application/json' })] } });

describe('Sites from ClinicalTrials.gov, from a study record file', () => {
  it('previews new, changed and closed sites from the record, then imports the same record', async () => {
    const { server: api } = renderAdmin({ path: '/engagements/view/12', user: makeUser('Admin'), handler: server });
    const panel = await screen.findByRole('region', { name: 'Sites from ClinicalTrials.gov' });
    choose(JSON.stringify(RECORD), 'NCT09990001.json');
    await within(panel).findByText('NCT09990001.json');
    expect((within(panel).getByRole('button', { name: 'Import' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(panel).getByRole('button', { name: 'Preview' }));
    await within(panel).findByRole('heading', { name: 'New (1)' });
    expect(within(panel).getByRole('heading', { name: 'Changed (1)' })).toBeTruthy();
    expect(within(panel).getByRole('heading', { name: 'Closed (1)' })).toBeTruthy();
    expect(panel.textContent).toContain('changes: latitude, longitude');
    expect(panel.textContent).toContain('(COMPLETED, inactive)');
    expect(ctgovCalls(api.requests).map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', 'clinicaltrials-gov/preview/12', { data: { type: 'clinicaltrials-gov-imports', attributes: { study: RECORD } } }],
    ]);

    fireEvent.click(within(panel).getByRole('button', { name: 'Import' }));
    await screen.findByText('NCT09990001: 1 new, 1 changed, 1 closed sites imported.');
    expect(ctgovCalls(api.requests).map((r) => [r.path, r.body])[1]).toEqual([
      'clinicaltrials-gov/import/12',
      { data: { type: 'clinicaltrials-gov-imports', attributes: { study: RECORD } } },
    ]);
  });

  it('refuses a file that is not JSON, sending nothing', async () => {
    const { server: api } = renderAdmin({ path: '/engagements/view/12', user: makeUser('Admin'), handler: server });
    const panel = await screen.findByRole('region', { name: 'Sites from ClinicalTrials.gov' });
    choose('<html>not a record</html>', 'study.json');
    expect((await within(panel).findByRole('alert')).textContent).toBe('The file is not a JSON study record.');
    fireEvent.click(within(panel).getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(within(panel).getByRole('alert').textContent).toBe('Enter an NCT number or choose a study record file.'));
    expect(ctgovCalls(api.requests)).toEqual([]);
  });
});
