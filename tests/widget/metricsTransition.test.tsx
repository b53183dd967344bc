import { describe, expect, it, vi } from 'vitest';
import type { WidgetTransport } from '../../widget/controller';
import { mount } from '../../widget/mount';

/** One page per survey; the first survey's page hands over to survey T. */
function transport() {
  const pageOf = (identity: string) => ({ id: `p-${identity}`, identity: `page-${identity}`, title: `Page of ${identity}`, displayOrder: 1, fields: [] });
  const fake = {
    loadSurvey: vi.fn(async (identity: string) => ({ id: identity || 'S', identity: identity || 'S', title: 'x', containerCount: 1, languages: ['en'] })),
    createSubmission: async (survey: { id: string }) => ({ submissionId: `sub-${survey.id}` }),
    firstPage: async (survey: { id: string }) => pageOf(survey.id),
    page: async (_survey: unknown, identity: string) => pageOf(identity.replace('page-', '')),
    createEntry: async () => ({ entryId: 'e' }),
    saveAnswers: vi.fn(async () => ({ ok: true as const, nextContainerIdentity: null, nextContainerEntryId: null, nextOFormIdentity: 'T' })),
    previewAnswers: async () => ({ ok: true as const, nextContainerIdentity: null, nextContainerEntryId: null }),
    sanitize: async () => true,
    qualification: async () => ({ isQualified: false, outcome: 'notQualified' as const }),
    credentials: () => 'token',
    resume: () => undefined,
    entryAnswers: async () => ({}),
    metric: vi.fn(),
    transitionChannel: vi.fn(async () => ({ mediaChannelId: '9', screenerId: '3' })),
  };
  return fake satisfies WidgetTransport;
}

describe('widget page timing and transition surveys', () => {
  it('sends the timing of a page with its save, then continues in the transition survey on its channel', async () => {
    const t = transport();
    const host = document.createElement('div');
    document.body.append(host);
    const widget = mount(host, { mediaChannelId: '1', screenerId: '2', apiOrigin: 'http://x', transport: t, storage: null });
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of S'));
    expect(t.metric).not.toHaveBeenCalled();
    widget.root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();

    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of T'));
    expect(t.transitionChannel).toHaveBeenCalledTimes(1);
    expect(t.transitionChannel).toHaveBeenCalledWith('T');
    expect(t.loadSurvey).toHaveBeenLastCalledWith('T');
    // The page's timing rode in its save (one request per Next): no timing call of its own.
    expect(t.saveAnswers).toHaveBeenCalledTimes(1);
    const [entryId, , timing] = t.saveAnswers.mock.calls[0] as unknown as [string, unknown, { start: string; stop: string }];
    expect(entryId).toBe('e');
    expect(Date.parse(timing.stop)).toBeGreaterThanOrEqual(Date.parse(timing.start));
    expect(t.metric).not.toHaveBeenCalled();
    widget.unmount();
  });

  it('sends no timing in preview and does not hand over', async () => {
    const t = transport();
    const host = document.createElement('div');
    document.body.append(host);
    const widget = mount(host, { mediaChannelId: '1', screenerId: '2', apiOrigin: 'http://x', transport: t, storage: null, preview: true });
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).toBe('Page of S'));
    widget.root.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await vi.waitFor(() => expect(widget.root.querySelector('.tw-title')?.textContent).not.toBe('Page of S'));
    expect(t.metric).not.toHaveBeenCalled();
    expect(t.transitionChannel).not.toHaveBeenCalled();
    widget.unmount();
  });
});
