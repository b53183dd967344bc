import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { COPIED } from '../../admin/sections/media-channels/View';
import { layoutFlow, NODE_WIDTH } from '../../admin/sections/screeners/flowLayout';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';

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
  views: 0,
  share: 0,
  submissionsStarted: 0,
  submissionsCompleted: 0,
  submissionsQualified: 0,
  created: '2024-05-01T10:00:00Z',
  modified: '2024-05-01T10:00:00Z',
};

const handler: Handler = (_request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'media-channels/9') return json(resourceDocument('media-channels', channel));
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
