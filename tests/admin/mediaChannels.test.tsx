import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COPIED } from '../../admin/sections/media-channels/View';
import { layoutFlow, NODE_WIDTH } from '../../admin/sections/screeners/flowLayout';
import {
  CHANNEL_ISOLATION_LABELS,
  FRAME_ISOLATION_EXPLAINED,
  HIDDEN_FIELD_DUPLICATE,
  HIDDEN_FIELD_NAME_INVALID,
  RETAKE_WINDOW_INVALID,
  campaignLink,
} from '@core/model/mediaChannel';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, sentAttributes, stubClipboard, type Handler, type Recorded } from './helpers';
import { makeMediaChannel, mediaChannelAnswers } from './fixtures';
import type { MediaChannel } from '@core/model/mediaChannel';
import { DETAILED_EVENTS_WARNING, EVENTS_POLICY_LABELS } from '@core/model/eventsPolicy';
import { HOST_EVENTS } from '@core/participant/hostEvents';
import { CHANNEL_LOCALE_INVALID } from '@core/model/channelLocale';

const channel = makeMediaChannel(9, { hiddenFields: [{ name: 'partner_ref', maxLength: 12 }], submissionsStarted: 4, possibleRetakes: 1 });

const served = [
  { id: 'intake', oFormIdentity: 'intake', title: 'Heart check', version: 2, isApproved: true, starts: true },
  { id: 'later', oFormIdentity: 'later', title: 'Follow-up', version: 1, isApproved: false, starts: false },
];

const problems = [
  {
    id: '9:origin-not-allowed:https://wrong.example',
    mediaChannelId: 9,
    origin: 'https://wrong.example',
    cause: 'origin-not-allowed',
    firstSeen: '2024-05-02T08:00:00Z',
    lastSeen: '2024-05-03T09:30:00Z',
    count: 3,
  },
  {
    id: '9:screener-mismatch:https://www.partner.example',
    mediaChannelId: 9,
    origin: 'https://www.partner.example',
    cause: 'screener-mismatch',
    firstSeen: '2024-05-01T08:00:00Z',
    lastSeen: '2024-05-01T08:00:00Z',
    count: 1,
  },
];

const handler: Handler = async (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'media-channels/9' && request.method === 'PATCH') {
    const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
    return json(resourceDocument('media-channels', { ...channel, ...data.attributes }));
  }
  if (path === 'screeners/5') return json(resourceDocument('screeners', { id: 5, title: 'Heart screener', sponsorId: 7, sponsorName: 'Acme Pharma' }));
  if (path === 'media-channels/9/served-surveys') return json(listDocument('served-surveys', served));
  if (path === 'media-channels/9/embed-problems') return json(listDocument('embed-problems', problems));
  return mediaChannelAnswers(channel)(request, url);
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Media channel view', () => {
  it('shows the snippet with sponsor > screener crumbs and copies it with a visible confirmation, its hidden fields as blank attributes', async () => {
    const writeText = stubClipboard();
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const snippet = (await screen.findByLabelText('Embed snippet', { exact: true })) as HTMLTextAreaElement;
    const expected = `<div data-trial-widget style="display:block;min-height:26em"></div><script async src="${window.location.origin}/widget.js" data-media-channel-id="9" data-screener-id="5" data-field-partner_ref=""></script>`;
    expect(snippet.value).toBe(expected);
    // What the partner's Content-Security-Policy must allow, and nothing more.
    expect(screen.getByText(`script-src ${window.location.origin}; connect-src ${window.location.origin}`)).toBeTruthy();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.textContent).toContain('Acme Pharma');
    expect(crumbs.textContent).toContain('Heart screener');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByText(COPIED);
    expect(writeText).toHaveBeenCalledWith(expected);
    // The widget's events for the partner's tag manager, each with what it means.
    const events = screen.getByRole('heading', { name: 'Events for your tag manager' }).parentElement!;
    // Under the default policy, minimal: the events that are the same for every run.
    expect([...events.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['trial-widget:view', 'trial-widget:start', 'trial-widget:finish']);
    expect(events.textContent).toContain('never anything about the participant');
  });

  it('falls back to selecting the text and the copy command when the clipboard API refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    await screen.findByLabelText('Embed snippet', { exact: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByText(COPIED);
    expect(execCommand).toHaveBeenCalledWith('copy');
  });
});

describe('Media channel retake window', () => {
  const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
  const patches = (requests: Recorded[]) => requests.filter((r) => r.method === 'PATCH');
  /** Saves the edit form; once the view is back, the attributes its PATCH sent. */
  const saved = async (server: { requests: Recorded[] }, location: () => string) => {
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/media-channels/view/9'));
    return sentAttributes(patches(server.requests)[0]);
  };

  it('shows the window and the possible retakes beside the starts on the view', async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const label = await screen.findByText('Retake window (days)');
    expect(label.parentElement?.textContent).toContain('30');
    expect(screen.getByText('Possible Retakes').parentElement?.textContent).toContain('1');
  });

  it('edits the window as a whole number of days, refusing others before sending', async () => {
    const { server, location } = renderAdmin({ path: '/media-channels/edit/9', user: makeUser('Admin'), handler });
    await waitFor(() => expect(field('Retake window (days)').value).toBe('30'));
    fireEvent.change(field('Retake window (days)'), { target: { value: '-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(RETAKE_WINDOW_INVALID)).toBeTruthy();
    expect(patches(server.requests)).toHaveLength(0);
    fireEvent.change(field('Retake window (days)'), { target: { value: '0' } });
    expect(await saved(server, location)).toMatchObject({ retakeWindowDays: 0, title: 'Partner page' });
  });

  it('chooses the events policy (minimal by default), showing why detailed is risky before it is saved', async () => {
    const { server, location } = renderAdmin({ path: '/media-channels/edit/9', user: makeUser('Admin'), handler });
    const select = () => screen.getByLabelText('Events for the partner page', { exact: false }) as HTMLSelectElement;
    await waitFor(() => expect(select().value).toBe('minimal'));
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(select(), { target: { value: 'detailed' } });
    expect((await screen.findByRole('alert')).textContent).toContain(DETAILED_EVENTS_WARNING);
    expect(await saved(server, location)).toMatchObject({ eventsPolicy: 'detailed' });
  });

  it('sets the locale, saying the unit its region reads distances in, and refuses one that is not a language and a region before saving', async () => {
    const { server, location } = renderAdmin({ path: '/media-channels/edit/9', user: makeUser('Admin'), handler });
    const locale = () => screen.getByLabelText('Locale', { exact: false }) as HTMLInputElement;
    await waitFor(() => expect(locale().value).toBe('en-US'));
    expect(screen.getByText(/en-US: miles/)).toBeTruthy();
    fireEvent.change(locale(), { target: { value: 'Canada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(CHANNEL_LOCALE_INVALID)).toBeTruthy();
    expect(patches(server.requests)).toHaveLength(0);
    fireEvent.change(locale(), { target: { value: 'en_ca' } });
    expect(screen.getByText(/en-CA: kilometres/)).toBeTruthy();
    expect(await saved(server, location)).toMatchObject({ locale: 'en-CA' });
  });

  /** The view of `shown` (as channel 9), as an Admin sees it. */
  const viewOf = (shown: MediaChannel) =>
    renderAdmin({
      path: '/media-channels/view/9',
      user: makeUser('Admin'),
      handler: async (request, url) =>
        url.pathname === '/api/media-channels/9' && request.method === 'GET' ? json(resourceDocument('media-channels', shown)) : handler(request, url),
    });

  it('chooses the isolation (none by default), saying what a frame buys and costs', async () => {
    const { server, location } = renderAdmin({ path: '/media-channels/edit/9', user: makeUser('Admin'), handler });
    const select = () => screen.getByLabelText('Isolation', { exact: false }) as HTMLSelectElement;
    await waitFor(() => expect(select().value).toBe('none'));
    expect(screen.getByText(FRAME_ISOLATION_EXPLAINED)).toBeTruthy();
    fireEvent.change(select(), { target: { value: 'frame' } });
    expect(await saved(server, location)).toMatchObject({ isolation: 'frame' });
  });

  it("gives a framed channel's snippet data-isolation and the CSP a frame needs, and says so on the view", async () => {
    const framed = makeMediaChannel(9, { isolation: 'frame' });
    viewOf(framed);
    const snippet = (await screen.findByLabelText('Embed snippet')) as HTMLTextAreaElement;
    expect(snippet.value).toContain(' data-isolation="frame"></script>');
    expect(screen.getByText(`script-src ${window.location.origin}; frame-src ${window.location.origin}`)).toBeTruthy();
    const field = screen.getByText('Isolation').parentElement?.textContent;
    expect(field).toContain(CHANNEL_ISOLATION_LABELS.frame);
    expect(field).toContain(FRAME_ISOLATION_EXPLAINED);
  });

  it('lists every event, with the policy, for a channel set to detailed', async () => {
    const detailed = makeMediaChannel(9, { eventsPolicy: 'detailed' });
    viewOf(detailed);
    const events = (await screen.findByRole('heading', { name: 'Events for your tag manager' })).parentElement!;
    expect([...events.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(HOST_EVENTS.map((e) => e.name));
    expect(screen.getByText('Events for the partner page').parentElement?.textContent).toContain(EVENTS_POLICY_LABELS.detailed);
  });
});

describe('Media channel surveys', () => {
  it('shows what the channel serves participants when it names no surveys of its own, and which one starts', async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const list = await screen.findByRole('list', { name: 'Served to participants' });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['Heart check (version 2, approved) Participants start here', 'Follow-up (version 1, not approved) ']);
    expect(screen.getByText(/Serves every active survey of its screener/)).toBeTruthy();
    expect(screen.queryByText(/serves no surveys/)).toBeNull();
  });

  it('says it serves nothing only when the participant start would find nothing', async () => {
    const empty: Handler = (request, url) => (url.pathname.endsWith('/served-surveys') ? json(listDocument('served-surveys', [])) : handler(request, url));
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler: empty });
    await screen.findByText('This channel serves no surveys yet: its screener has no active survey.');
    expect(screen.queryByRole('list', { name: 'Served to participants' })).toBeNull();
  });
});

describe('flow layout', () => {
  it('puts each survey one column right of the surveys leading to it, cycles included', () => {
    const placed = layoutFlow({
      nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, oFormIdentity: id, title: id, isActive: true })),
      edges: [
        { id: '1', source: 'a', target: 'b' },
        { id: '2', source: 'b', target: 'c' },
        { id: '3', source: 'a', target: 'd' },
        { id: '4', source: 'c', target: 'a' },
      ],
    });
    const column = (id: string) => placed.find((p) => p.node.id === id)!.x / (NODE_WIDTH + 80);
    expect(['b', 'c', 'd'].map(column)).toEqual([column('a') + 1, column('a') + 2, column('a') + 1]);
    const b = placed.find((p) => p.node.id === 'b')!;
    const d = placed.find((p) => p.node.id === 'd')!;
    expect(b.y).not.toBe(d.y);
  });
});

describe('Media channel embed problems, hidden fields and campaign link', () => {
  const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;

  it('lists the embed problems seen, with origin, cause, count and times', async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const table = await screen.findByRole('table', { name: 'Embed problems' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['https://wrong.example', "Page origin not allowed (not the channel's domain)", '3'],
      ['https://www.partner.example', "Snippet's screener is not the channel's", '1'],
    ]);
    expect(screen.getByText('Hidden fields').parentElement?.textContent).toContain('data-field-partner_ref (at most 12)');
  });

  it('builds the participant link with campaign parameters, its QR code and an SVG download', async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    await screen.findByLabelText('Campaign link', { exact: true });
    fireEvent.change(field('utm_source'), { target: { value: ' newsletter ' } });
    fireEvent.change(field('utm_campaign'), { target: { value: 'spring drive' } });
    const expected = `${window.location.origin}/take/9?utm_source=newsletter&utm_campaign=spring+drive`;
    expect(field('Campaign link').value).toBe(expected);
    expect(campaignLink('https://x.example/', 9, {})).toBe('https://x.example/take/9');
    expect((screen.getByAltText(`QR code of the campaign link ${expected}`) as HTMLImageElement).src).toMatch(/^data:image\/svg\+xml/);
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (created.push(b), 'blob:qr'), revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Download QR code (SVG)' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(created[0]?.type).toBe('image/svg+xml');
    expect(await created[0]!.text()).toMatch(/^<svg/);
  });

  it('edits hidden fields, refusing a bad name or a duplicate before sending', async () => {
    const { server, location } = renderAdmin({ path: '/media-channels/edit/9', user: makeUser('Admin'), handler });
    await waitFor(() => expect(field('Hidden field 1 name').value).toBe('partner_ref'));
    // Styled as the admin's tables are (a class the stylesheet does not define left it bare).
    expect(field('Hidden field 1 name').closest('table')?.className).toContain('data-table');
    fireEvent.click(screen.getByRole('button', { name: 'Add hidden field' }));
    fireEvent.change(field('Hidden field 2 name'), { target: { value: 'Click ID' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(HIDDEN_FIELD_NAME_INVALID)).toBeTruthy();
    fireEvent.change(field('Hidden field 2 name'), { target: { value: 'partner_ref' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(HIDDEN_FIELD_DUPLICATE)).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    fireEvent.change(field('Hidden field 2 name'), { target: { value: 'click-id' } });
    fireEvent.change(field('Hidden field 2 max length'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove hidden field 1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/media-channels/view/9'));
    const patch = server.requests.find((r) => r.method === 'PATCH')?.body as { data: { attributes: Record<string, unknown> } };
    expect(patch.data.attributes.hiddenFields).toEqual([{ name: 'click-id', maxLength: 40 }]);
  });
});

describe("Media channel view's spend", () => {
  it('lists what the channel cost and enters a spend in minor units, refusing an unreadable amount before sending', async () => {
    const spends = [
      {
        id: '3',
        mediaChannelId: 9,
        mediaChannelTitle: 'Partner page',
        sponsorId: 7,
        amountMinor: 300_000,
        currency: 'USD',
        periodStart: '2031-06-01',
        periodEnd: '2031-06-30',
        campaign: null,
        created: '2031-06-01T00:00:00Z',
        modified: '2031-06-01T00:00:00Z',
      },
    ];
    const spendHandler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'channel-spends' && request.method === 'POST') {
        const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
        return json(resourceDocument('channel-spends', { id: '4', ...data.attributes }), 201);
      }
      if (path === 'channel-spends') return json(listDocument('channel-spends', spends));
      return handler(request, url);
    };
    const { server } = renderAdmin({ path: '/media-channels/view/9', user: makeUser('User'), handler: spendHandler });
    const table = await screen.findByRole('table', { name: 'Spend' });
    await waitFor(() => expect(within(table).getAllByRole('row')[1]!.textContent).toContain('3000.00 USD'));
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('2031-06-01 to 2031-06-30');

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '12,5.x' } });
    fireEvent.change(screen.getByLabelText('From', { selector: '#spend-from' }), { target: { value: '2031-07-01' } });
    fireEvent.change(screen.getByLabelText('To', { selector: '#spend-to' }), { target: { value: '2031-07-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add spend' }));
    await screen.findByText('Enter the amount as a number such as 1250.00.');
    expect(server.requests.filter((r) => r.path === 'channel-spends' && r.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '1,250.5' } });
    fireEvent.change(screen.getByLabelText('Campaign (utm_campaign, optional)'), { target: { value: 'july-ads' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add spend' }));
    await waitFor(() => expect(server.requests.filter((r) => r.path === 'channel-spends' && r.method === 'POST')).toHaveLength(1));
    const sent = server.requests.find((r) => r.path === 'channel-spends' && r.method === 'POST')!.body as { data: { attributes: Record<string, unknown> } };
    expect(sent.data.attributes).toEqual({
      mediaChannelId: 9,
      amountMinor: 125_050,
      currency: 'USD',
      periodStart: '2031-07-01',
      periodEnd: '2031-07-31',
      campaign: 'july-ads',
    });
  });
});
