import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { COPIED } from '../../admin/sections/media-channels/View';
import { layoutFlow, NODE_WIDTH } from '../../admin/sections/screeners/flowLayout';
import { RETAKE_WINDOW_INVALID } from '../../core/model/mediaChannel';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler, type Recorded } from './helpers';

const channel = {
  id: 9,
  title: 'Partner page',
  domain: 'www.partner.example',
  screenerId: 5,
  screenerName: 'Heart screener',
  sponsorId: 7,
  sponsorName: 'Acme Pharma',
  type: 'Partner Website',
  isActive: true,
  retakeWindowDays: 30,
  views: 0,
  share: 0,
  submissionsStarted: 4,
  submissionsCompleted: 0,
  submissionsQualified: 0,
  possibleRetakes: 1,
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-01T10:00:00Z',
};

const served = [
  { id: 'intake', oFormIdentity: 'intake', title: 'Heart check', version: 2, isApproved: true, starts: true },
  { id: 'later', oFormIdentity: 'later', title: 'Follow-up', version: 1, isApproved: false, starts: false },
];

const handler: Handler = async (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'media-channels/9' && request.method === 'PATCH') {
    const { data } = (await request.json()) as { data: { attributes: Record<string, unknown> } };
    return json(resourceDocument('media-channels', { ...channel, ...data.attributes }));
  }
  if (path === 'media-channels/9') return json(resourceDocument('media-channels', channel));
  if (path === 'screeners/5') return json(resourceDocument('screeners', { id: 5, title: 'Heart screener', sponsorId: 7, sponsorName: 'Acme Pharma' }));
  if (path === 'media-channels/9/served-surveys') return json(listDocument('served-surveys', served));
  if (path === 'media-channel-surveys' || path === 'screener-surveys') return json(listDocument(path, []));
  return undefined;
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Media channel view', () => {
  it('shows the snippet with sponsor > screener crumbs and copies it with a visible confirmation', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const snippet = (await screen.findByLabelText('Embed snippet', { exact: true })) as HTMLTextAreaElement;
    const expected = `<div data-trial-widget></div><script async src="${window.location.origin}/widget.js" data-media-channel-id="9" data-screener-id="5"></script>`;
    expect(snippet.value).toBe(expected);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbs.textContent).toContain('Acme Pharma');
    expect(crumbs.textContent).toContain('Heart screener');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByText(COPIED);
    expect(writeText).toHaveBeenCalledWith(expected);
    // The widget's events for the partner's tag manager, each with what it means.
    const events = screen.getByRole('heading', { name: 'Events for your tag manager' }).parentElement!;
    expect([...events.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'trial-widget:view',
      'trial-widget:start',
      'trial-widget:page',
      'trial-widget:outcome',
      'trial-widget:complete',
    ]);
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
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(location()).toBe('/media-channels/view/9'));
    expect((patches(server.requests)[0]?.body as { data: { attributes: Record<string, unknown> } }).data.attributes).toMatchObject({ retakeWindowDays: 0, title: 'Partner page' });
  });
});

describe('Media channel surveys', () => {
  it("shows what the channel serves participants when it names no surveys of its own, and which one starts", async () => {
    renderAdmin({ path: '/media-channels/view/9', user: makeUser('Admin'), handler });
    const list = await screen.findByRole('list', { name: 'Served to participants' });
    const items = within(list).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['Heart check (version 2, approved) Participants start here', 'Follow-up (version 1, not approved) ']);
    expect(screen.getByText(/Serves every active survey of its screener/)).toBeTruthy();
    expect(screen.queryByText(/serves no surveys/)).toBeNull();
  });

  it('says it serves nothing only when the participant start would find nothing', async () => {
    const empty: Handler = (request, url) =>
      url.pathname.endsWith('/served-surveys') ? json(listDocument('served-surveys', [])) : handler(request, url);
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
