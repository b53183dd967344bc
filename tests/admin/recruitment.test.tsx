import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { FUNNEL_FIGURES, FUNNEL_STAGES, type FunnelCounts } from '@core/model/funnel';
import { readFunnelQuery, recruitmentPath, writeFunnelQuery } from '../../admin/components/funnel/funnelQuery';
import { fillPeriods, niceMax } from '../../admin/components/charts/series';
import { TREND_STAGES, TrendChart } from '../../admin/components/charts/Charts';
import { captureSavedFiles, json, listDocument, makeUser, renderAdmin, type Handler, type Recorded, refusal } from './helpers';
import { makeMediaChannel, mediaChannelAnswers } from './fixtures';

// The screen and its charts are lazy chunks; the machine is shared.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

/** The stages' counts, then the leads' (all, not qualified, no site near, not running); 0 where not given. */
const counts = (values: number[]): FunnelCounts => Object.fromEntries(FUNNEL_FIGURES.map((s, i) => [s, values[i] ?? 0])) as FunnelCounts;
const ALL = counts([200, 100, 50, 40, 30, 20, 10, 5, 5, 0, 2, 9, 4, 3, 2]);

function funnelRows(groupBy: string | null, hiddenField: string | null) {
  switch (groupBy) {
    case 'hiddenField':
      return [
        // Views carry no hidden field: the server answers null (not tracked), never a 0.
        { id: `${hiddenField}-1`, group: `${hiddenField}-1`, label: `${hiddenField}-1`, ...counts([0, 70, 35, 30, 20, 15, 8, 4, 4, 0, 2]), viewed: null },
        { id: '-', group: null, label: 'No value', ...counts([200, 30, 15, 10, 10, 5, 2, 1, 1, 0, 0]) },
      ];
    case 'source':
      return [
        { id: 'newsletter', group: 'newsletter', label: 'newsletter', ...counts([120, 60, 30, 25, 20, 12, 6, 3, 3, 0, 1]) },
        { id: 'facebook', group: 'facebook', label: 'facebook', ...counts([80, 40, 20, 15, 10, 8, 4, 2, 2, 0, 1]) },
      ];
    case 'week':
      return [
        { id: '2026-11-02', group: '2026-11-02', label: '2026-11-02', ...counts([100, 60, 30, 20, 15, 10, 5, 2, 2, 0, 1]) },
        // 2026-11-09 has nothing: the chart fills it in as zeros.
        { id: '2026-11-16', group: '2026-11-16', label: '2026-11-16', ...counts([100, 40, 20, 20, 15, 10, 5, 3, 3, 0, 1]) },
      ];
    case 'day':
      return [{ id: '2026-11-16', group: '2026-11-16', label: '2026-11-16', ...counts([100, 40, 20, 20, 15, 10, 5, 3, 3, 0, 1]) }];
    default:
      return [{ id: 'all', group: null, label: 'All', ...ALL }];
  }
}

const CSV = 'group,label,viewed,started\r\nnewsletter,newsletter,120,60\r\n';

const handler: Handler = (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'recruitment-funnel') {
    if (request.headers.get('accept') === 'text/csv') {
      return new Response(CSV, {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="recruitment-funnel-2026-11-23.csv"' },
      });
    }
    const doc = listDocument('funnel-rows', funnelRows(url.searchParams.get('groupBy'), url.searchParams.get('hiddenField')));
    return json({ ...doc, meta: { ...doc.meta, definitions: { started: 'Submissions whose participant answered at least one page.' } } });
  }
  if (path === 'sponsors') return json(listDocument('sponsors', [{ id: 7, name: 'Acme Pharma' }]));
  if (path === 'engagements') return json(listDocument('engagements', [{ id: 3, name: 'Heart study' }]));
  if (path === 'screeners') return json(listDocument('screeners', [{ id: 5, title: 'Heart screener' }]));
  if (path === 'media-channels') return json(listDocument('media-channels', [{ id: 9, title: 'Partner page' }]));
  if (path === 'o-forms/o-forms') return json(listDocument('o-forms', [{ id: 11, identity: 'intake', title: 'Heart check', version: 2 }]));
  if (path === 'site-locations') return json(listDocument('site-locations', [{ id: 4, name: 'Boston General', siteId: 'B-1' }]));
  return undefined;
};

const funnelRequests = (requests: Recorded[]) => requests.filter((r) => r.path === 'recruitment-funnel').map((r) => Object.fromEntries(r.query));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Recruitment screen', () => {
  it('is in the side navigation for a User and shows the funnel with the conversion between stages', async () => {
    const { location } = renderAdmin({ path: '/sponsors', user: makeUser('User'), handler });
    fireEvent.click(await screen.findByRole('link', { name: 'Recruitment' }));
    expect(location()).toBe('/recruitment');
    const funnel = await screen.findByRole('figure', { name: 'Recruitment funnel' });
    const steps = within(funnel).getAllByRole('listitem');
    expect(steps.map((s) => s.querySelector('.funnel-stage')!.textContent)).toEqual([
      'Viewed',
      'Started',
      'Completed',
      'Qualified',
      'Site selected',
      'Contact left',
      'Delivered',
      'Reached',
      'Screened',
      'Screen failed',
      'Randomized',
    ]);
    expect(steps.map((s) => s.querySelector('.funnel-count')!.textContent)).toEqual(['200', '100', '50', '40', '30', '20', '10', '5', '5', '0', '2']);
    expect(within(funnel).getByLabelText('Conversion from Viewed to Started').textContent).toBe('50.0% converted');
    expect(within(funnel).getByLabelText('Conversion from Qualified to Site selected').textContent).toBe('75.0% converted');
    expect(within(funnel).getByLabelText('Conversion from Screened to Randomized').textContent).toBe('40.0% converted');
    // The server's sentence for a stage, beside the chart.
    expect(screen.getByText('Submissions whose participant answered at least one page.', { selector: 'dd' })).toBeTruthy();
    // Leads beside the funnel, not a stage of it, each kind apart and explained.
    expect(screen.getByTestId('funnel-leads').textContent).toMatch(/^Leads kept: 9 \(not qualified 4, no site near 3, not running 2\)/);
    expect(screen.getByText('Leads kept', { selector: 'dt' }).nextElementSibling!.textContent).toMatch(/never a referral/);
    // The trend by week, the week without anything filled in.
    const trend = await screen.findByRole('img', { name: /^Trend by week: 3 weeks from 2026-11-02 to 2026-11-16$/ });
    expect(trend.querySelectorAll('.trend-started circle')).toHaveLength(3);
    expect(trend.querySelector('.trend-started circle title')?.textContent).toBe('2026-11-02 · Started: 60');
  });

  it('keeps both of two changes made before it renders the first', async () => {
    const { location } = renderAdmin({ path: '/recruitment?engagementId=3', user: makeUser('User'), handler });
    await screen.findByRole('table', { name: 'Funnel breakdown' });
    // In one act: the second change comes before the router has rendered the first, as a quick
    // hand on a busy machine makes them.
    act(() => {
      fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'week' } });
      fireEvent.change(screen.getByLabelText('Trend'), { target: { value: 'day' } });
    });
    await waitFor(() => expect(location()).toBe('/recruitment?engagementId=3&groupBy=week&trend=day'));
    await screen.findByRole('heading', { name: 'Breakdown by week' });
  });

  it('reads its filters and grouping from the URL, asks the server with them, and writes changes back', async () => {
    const path = '/recruitment?engagementId=3&mediaChannelId=9&from=2026-11-01&to=2026-11-30&groupBy=source&trend=day';
    const { server, location } = renderAdmin({ path, user: makeUser('User'), handler });
    const table = await screen.findByRole('table', { name: 'Funnel breakdown' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe('newsletter1206030252012633010000');
    const filters = { engagementId: '3', mediaChannelId: '9', from: '2026-11-01', to: '2026-11-30' };
    const asked = funnelRequests(server.requests);
    expect(asked).toContainEqual(filters);
    expect(asked).toContainEqual({ ...filters, groupBy: 'day' });
    expect(asked).toContainEqual({ ...filters, groupBy: 'source' });
    expect((screen.getByLabelText('Group by') as HTMLSelectElement).value).toBe('source');
    expect((screen.getByLabelText('Trend') as HTMLSelectElement).value).toBe('day');
    await waitFor(() => expect((screen.getByLabelText('Engagement') as HTMLSelectElement).value).toBe('3'));
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2026-11-01');

    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'week' } });
    await waitFor(() => expect(location()).toBe('/recruitment?engagementId=3&mediaChannelId=9&from=2026-11-01&to=2026-11-30&groupBy=week&trend=day'));
    await waitFor(() => expect(funnelRequests(server.requests)).toContainEqual({ ...filters, groupBy: 'week' }));
    await screen.findByRole('heading', { name: 'Breakdown by week' });

    // The Site filter offers the chosen engagement's sites only.
    const siteAsks = () => server.requests.filter((r) => r.path === 'site-locations').map((r) => Object.fromEntries(r.query));
    expect(siteAsks()).toContainEqual({ limit: '1000', sort: 'name', engagementId: '3' });

    fireEvent.change(screen.getByLabelText('Sponsor'), { target: { value: '7' } });
    // A sponsor chosen anew drops the narrower choices that may not be its own.
    await waitFor(() => expect(location()).toBe('/recruitment?sponsorId=7&from=2026-11-01&to=2026-11-30&groupBy=week&trend=day'));
    // ...and the sites offered are that sponsor's.
    await waitFor(() => expect(siteAsks().at(-1)).toEqual({ limit: '1000', sort: 'name', sponsorId: '7' }));

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location()).toBe('/recruitment?groupBy=week&trend=day'));
  });

  it('exports the breakdown as the server writes it (Accept: text/csv, the same filters and grouping) and saves the file', async () => {
    const created = captureSavedFiles();
    const accepts: (string | null)[] = [];
    const recording: Handler = (request, url) => {
      if (url.pathname === '/api/recruitment-funnel') accepts.push(request.headers.get('accept'));
      return handler(request, url);
    };
    const { server } = renderAdmin({ path: '/recruitment?engagementId=3&groupBy=source', user: makeUser('User'), handler: recording });
    await screen.findByRole('table', { name: 'Funnel breakdown' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Downloaded recruitment-funnel-2026-11-23.csv.')).toBeTruthy();
    expect(accepts.at(-1)).toBe('text/csv');
    expect(funnelRequests(server.requests).at(-1)).toEqual({ engagementId: '3', groupBy: 'source' });
    expect(await created[0]!.text()).toBe(CSV);
  });
});

describe('funnel URL state', () => {
  it('reads what it knows, drops what it does not, and writes defaults out', () => {
    const query = readFunnelQuery(new URLSearchParams('engagementId=3&groupBy=nonsense&trend=hour&colour=red&from=2026-01-01'));
    expect(query).toEqual({ filters: { engagementId: '3', from: '2026-01-01' }, groupBy: 'none', trend: 'week' });
    expect(writeFunnelQuery(query).toString()).toBe('engagementId=3&from=2026-01-01');
    expect(writeFunnelQuery({ ...query, groupBy: 'site', trend: 'day' }).toString()).toBe('engagementId=3&from=2026-01-01&groupBy=site&trend=day');
    expect(recruitmentPath({ screenerId: '5' }, 'mediaChannel')).toBe('/recruitment?screenerId=5&groupBy=mediaChannel');
    expect(recruitmentPath({})).toBe('/recruitment');
    // A hidden field's name goes with its grouping only, and only as a name a channel may declare.
    expect(readFunnelQuery(new URLSearchParams('groupBy=hiddenField&hiddenField=partner'))).toEqual({
      filters: {},
      groupBy: 'hiddenField',
      hiddenField: 'partner',
      trend: 'week',
    });
    expect(readFunnelQuery(new URLSearchParams('groupBy=hiddenField&hiddenField=Partner%20Ref')).hiddenField).toBeUndefined();
    expect(readFunnelQuery(new URLSearchParams('groupBy=source&hiddenField=partner')).hiddenField).toBeUndefined();
    expect(writeFunnelQuery({ filters: {}, groupBy: 'source', hiddenField: 'partner', trend: 'week' }).toString()).toBe('groupBy=source');
  });

  it('draws one period as a bar per stage with its count, not as dots on one vertical', () => {
    const counts = Object.fromEntries(FUNNEL_STAGES.map((stage, i) => [stage, 100 - i * 10])) as FunnelCounts;
    render(<TrendChart points={[{ period: '2026-11-02', counts }]} period="week" label="Trend by week" />);
    const trend = screen.getByRole('img', { name: /^Trend by week: 1 week from 2026-11-02 to 2026-11-02$/ });
    expect(trend.querySelectorAll('circle')).toHaveLength(0);
    const bars = [...trend.querySelectorAll('.trend-series rect')];
    expect(bars).toHaveLength(TREND_STAGES.length);
    // Side by side, none covering another.
    const lefts = bars.map((b) => Number(b.getAttribute('x')));
    for (let i = 1; i < lefts.length; i++) expect(lefts[i]!).toBeGreaterThanOrEqual(lefts[i - 1]! + Number(bars[i - 1]!.getAttribute('width')));
    expect([...trend.querySelectorAll('.trend-bar-count')].map((t) => t.textContent)).toEqual(TREND_STAGES.map((stage) => String(counts[stage])));
  });

  it('fills the periods of a trend and rounds its axis', () => {
    expect(fillPeriods(['2026-11-16', '2026-11-02'], 'week')).toEqual(['2026-11-02', '2026-11-09', '2026-11-16']);
    expect(fillPeriods(['2026-02-27', '2026-03-02'], 'day')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(fillPeriods([], 'day')).toEqual([]);
    expect([niceMax(0), niceMax(7), niceMax(120), niceMax(2000)]).toEqual([1, 10, 200, 2000]);
  });
});

const channel = makeMediaChannel(9, { views: 200, submissionsStarted: 100, submissionsCompleted: 50, submissionsQualified: 40 });

describe('funnel panels', () => {
  it("shows a media channel's funnel and links to the Recruitment screen narrowed to the channel", async () => {
    const channelHandler = mediaChannelAnswers(channel, handler, ['media-channels/9/served-surveys']);
    const { server, location } = renderAdmin({ path: '/media-channels/view/9', user: makeUser('User'), handler: channelHandler });
    const funnel = await screen.findByRole('figure', { name: 'Recruitment funnel of Partner page' });
    expect(
      within(funnel)
        .getAllByRole('listitem')
        .map((s) => s.querySelector('.funnel-count')!.textContent),
    ).toEqual(['200', '100', '50', '40', '30', '20', '10', '5', '5', '0', '2']);
    expect(funnelRequests(server.requests)).toContainEqual({ mediaChannelId: '9' });
    const open = screen.getByRole('link', { name: 'Open in Recruitment' });
    expect(open.getAttribute('href')).toBe('/recruitment?mediaChannelId=9&groupBy=source');
    fireEvent.click(open);
    await screen.findByRole('table', { name: 'Funnel breakdown' });
    expect(location()).toBe('/recruitment?mediaChannelId=9&groupBy=source');
    expect((screen.getByLabelText('Group by') as HTMLSelectElement).value).toBe('source');
  });

  it('shows the cost per outcome of each row, currency by currency, and says where it cannot be told', async () => {
    const costHandler: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'recruitment-funnel' && url.searchParams.get('groupBy') === 'mediaChannel') {
        const row = {
          id: '9',
          group: '9',
          label: 'Partner page',
          ...ALL,
          spend: { EUR: '900.00', USD: '1600.00' },
          costPerStarted: { EUR: '9.00', USD: '16.00' },
          costPerQualified: { EUR: '22.50', USD: '40.00' },
          costPerReferred: { EUR: '45.00', USD: '80.00' },
          costPerRandomized: { EUR: null, USD: null },
        };
        return json(listDocument('funnel-rows', [row]));
      }
      return handler(request, url);
    };
    renderAdmin({ path: '/recruitment?groupBy=mediaChannel', user: makeUser('User'), handler: costHandler });
    const table = await screen.findByRole('table', { name: 'Cost per outcome' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    const cells = [...within(table).getAllByRole('row')[1]!.querySelectorAll('td')].map((c) => c.textContent);
    expect(cells).toEqual(['Partner page', '900.00 EUR; 1600.00 USD', '9.00 EUR; 16.00 USD', '22.50 EUR; 40.00 USD', '45.00 EUR; 80.00 USD', '—']);
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'day' } });
    await screen.findByText(/Cost per outcome is shown without grouping or grouped by media channel, campaign or engagement/);
  });

  it('says so when the funnel cannot be loaded', async () => {
    const failing: Handler = (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'recruitment-funnel') return json({ errors: [{ status: '500', title: 'Internal Server Error' }] }, 500);
      return mediaChannelAnswers(channel, handler, ['media-channels/9/served-surveys'])(request, url);
    };
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('User'), handler: failing });
    expect(await screen.findByText('Could not load the funnel.')).toBeTruthy();
  });
});

describe('grouping by a hidden field', () => {
  const declared = [
    {
      ...channel,
      title: 'Partner page',
      hiddenFields: [
        { name: 'partner', maxLength: 20 },
        { name: 'region', maxLength: 10 },
      ],
    },
    {
      ...channel,
      id: '10',
      title: 'Clinic page',
      hiddenFields: [
        { name: 'clinic', maxLength: 20 },
        { name: 'partner', maxLength: 40 },
      ],
    },
  ];
  const withFields: Handler = (request, url) =>
    url.pathname === '/api/media-channels' ? json(listDocument('media-channels', declared)) : handler(request, url);

  it('offers the names the channels in the filters declare, keeps the chosen one in the URL and asks the server by it', async () => {
    const path = '/recruitment?sponsorId=7&groupBy=hiddenField&hiddenField=partner';
    const { server, location } = renderAdmin({ path, user: makeUser('User'), handler: withFields });
    const table = await screen.findByRole('table', { name: 'Funnel breakdown' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Hidden field partner');
    // Views carry no hidden field: the row says so rather than showing 0 views.
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe('partner-1not tracked7035302015844020000');
    await screen.findByRole('heading', { name: 'Breakdown by hidden field partner' });
    expect(funnelRequests(server.requests)).toContainEqual({ sponsorId: '7', groupBy: 'hiddenField', hiddenField: 'partner' });
    // The channels are asked within the sponsor; each name once, in order.
    expect(server.requests.filter((r) => r.path === 'media-channels').map((r) => r.query.get('sponsorId'))).toContain('7');
    const select = (await screen.findByLabelText('Hidden field')) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', 'clinic', 'partner', 'region']));
    expect(select.value).toBe('partner');

    fireEvent.change(select, { target: { value: 'region' } });
    await waitFor(() => expect(location()).toBe('/recruitment?sponsorId=7&groupBy=hiddenField&hiddenField=region'));
    await waitFor(() => expect(funnelRequests(server.requests)).toContainEqual({ sponsorId: '7', groupBy: 'hiddenField', hiddenField: 'region' }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]!.textContent).toMatch(/^region-1/));

    // Another grouping drops the name; choosing the hidden field again waits for one.
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'source' } });
    await waitFor(() => expect(location()).toBe('/recruitment?sponsorId=7&groupBy=source'));
    expect(screen.queryByLabelText('Hidden field')).toBeNull();
    fireEvent.change(screen.getByLabelText('Group by'), { target: { value: 'hiddenField' } });
    await waitFor(() => expect(location()).toBe('/recruitment?sponsorId=7&groupBy=hiddenField'));
    expect(await screen.findByText('Choose the hidden field to group by.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(funnelRequests(server.requests).filter((q) => q.groupBy === 'hiddenField' && !q.hiddenField)).toEqual([]);
  });

  it("narrows the names to the chosen channel's, and shows the server's refusal of a name", async () => {
    const refusing: Handler = (request, url) => {
      if (url.pathname === '/api/recruitment-funnel' && url.searchParams.get('hiddenField') === 'clinic') {
        return refusal(400, 'Bad Request', "No media channel in scope declares the hidden field 'clinic'.", { parameter: 'hiddenField' });
      }
      return withFields(request, url);
    };
    renderAdmin({ path: '/recruitment?mediaChannelId=9&groupBy=hiddenField&hiddenField=clinic', user: makeUser('User'), handler: refusing });
    expect(await screen.findByText("No media channel in scope declares the hidden field 'clinic'.")).toBeTruthy();
    const select = (await screen.findByLabelText('Hidden field')) as HTMLSelectElement;
    await waitFor(() => expect([...select.options].map((o) => o.value)).toEqual(['', 'partner', 'region']));
  });
});
