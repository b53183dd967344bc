import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RunnerTransport } from '@core/oform/runner';
import type { PageDocument, PageSavedMeta } from '@core/participant/responses';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';
import { makeMediaChannel } from './fixtures';

const channel = makeMediaChannel(12, { title: 'Partner', domain: 'partner.example', screenerName: 'Heart', sponsorName: 'Acme' });
const version = {
  id: 41, identity: 'heart', version: 2, title: 'Heart survey', isActive: true, isApproved: false, approvedAt: null, containerCount: 1,
  engagementId: '3', engagementName: 'Heart study', sponsorId: '1', sponsorName: 'Acme', transitions: [], created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z',
};
// The participant routes' answers as the contract declares them: the preview checks every answer.
const page: PageDocument = {
  data: {
    type: 'o-form-containers',
    id: '300',
    attributes: { identity: 'p1', title: 'First page', displayOrder: 1, isActive: true, oFormVersionId: '41', oFormIdentity: 'heart', oFormContainerTypeId: 'root_container', parentId: null, translations: {} },
    relationships: { parentOFormContainer: { data: null }, childOFormContainers: { data: [] }, oFormFields: { data: [] } },
  },
  included: [],
};
const saved: PageSavedMeta = { success: true, nextContainerIdentity: null, nextContainerEntryId: null, nextOFormIdentity: null, nextPage: null };

const previews: string[] = [];
const handler: Handler = async (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'media-channels/12') return json(resourceDocument('media-channels', channel));
  if (path === 'media-channel-surveys') return json(listDocument('media-channel-surveys', [{ id: 1, mediaChannelId: 12, oFormIdentity: 'heart', isActive: true, title: 'Heart survey', version: 2, isApproved: false }]));
  if (path === 'screener-surveys') return json(listDocument(path, []));
  if (path === 'o-forms/o-forms' && url.searchParams.get('identity') === 'heart') return json(listDocument('o-forms', [version]));
  if (path === 'o-forms/o-forms/41') {
    return json({
      data: { type: 'o-forms', id: '41', attributes: { ...version, id: undefined }, relationships: { languages: { data: [{ type: 'languages', id: '2' }] }, oFormContainers: { data: [] } } },
      included: [{ type: 'languages', id: '2', attributes: { name: 'Español', description: 'Spanish', isoCode: 'es' } }],
    });
  }
  if (path === 'o-forms/o-form-containers') return json(page);
  if (path === 'o-forms/o-form-submission-page-preview/300') {
    previews.push(`${request.method} ${url.searchParams.get('language')} ${await request.text()}`);
    return json({ meta: saved });
  }
  return undefined;
};

afterEach(() => {
  delete window.TrialWidget;
});

describe('Media channel preview', () => {
  it('mounts the participant widget in preview mode for an unapproved version, in the chosen language, over the page-preview endpoint', async () => {
    const mount = vi.fn((el: HTMLElement, _options: Record<string, unknown>) => ({ root: el.attachShadow({ mode: 'open' }), unmount: vi.fn() }));
    window.TrialWidget = { ready: Promise.resolve({ start: vi.fn(), mount }) };
    renderAdmin({ path: '/media-channels/view/12', user: makeUser('Admin'), handler });
    // Picked by title, version and approval from the channel's surveys.
    const survey = await screen.findByRole('combobox', { name: 'Survey' }, { timeout: 4000 });
    fireEvent.focus(survey);
    fireEvent.mouseDown(await screen.findByRole('option', { name: 'Heart survey (version 2, not approved)' }));
    expect((survey as HTMLInputElement).value).toBe('Heart survey (version 2, not approved)');
    const versionSelect = screen.getByLabelText('Version') as HTMLSelectElement;
    await waitFor(() => expect(versionSelect.textContent).toContain('Version 2'));
    fireEvent.change(versionSelect, { target: { value: '41' } });
    const languageSelect = screen.getByLabelText('Language') as HTMLSelectElement;
    await waitFor(() => expect(languageSelect.textContent).toContain('Español'));
    fireEvent.change(languageSelect, { target: { value: 'es' } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(mount).toHaveBeenCalledTimes(1));

    const options = mount.mock.calls[0]![1] as { preview: boolean; language: string; storage: null; transport: RunnerTransport };
    expect(options).toMatchObject({ preview: true, language: 'es', storage: null });
    const t = options.transport;
    const loaded = await t.loadSurvey('');
    expect(loaded).toMatchObject({ id: '41', identity: 'heart', languages: ['en', 'es'] });
    const first = await t.firstPage(loaded);
    expect(first).toMatchObject({ id: '300', identity: 'p1', title: 'First page' });
    expect(await t.previewAnswers(first, { q: 'x' })).toEqual({ ok: true, ...saved });
    expect(previews).toEqual([`POST es ${JSON.stringify({ data: { type: 'o-form-submission-pages', id: '300', attributes: { answers: { q: 'x' } } } })}`]);
    await expect(t.createSubmission(loaded)).rejects.toThrow('stores nothing');
  }, 20_000);
});
