import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ContactTransport, RunnerTransport } from '@core/survey/runner';
import type { PageDocument, PageSavedMeta } from '@core/participant/responses';
import { json, listDocument, makeUser, renderAdmin, resourceDocument, type Handler } from './helpers';
import { makeMediaChannel } from './fixtures';

const channel = makeMediaChannel(12, { title: 'Partner', domain: 'partner.example', screenerName: 'Heart', sponsorName: 'Acme' });
const version = {
  id: 41,
  identity: 'heart',
  version: 2,
  title: 'Heart survey',
  isActive: true,
  isApproved: false,
  approvedAt: null,
  containerCount: 1,
  engagementId: '3',
  engagementName: 'Heart study',
  sponsorId: '1',
  sponsorName: 'Acme',
  transitions: [],
  created: '2026-01-01T00:00:00Z',
  modified: '2026-01-01T00:00:00Z',
};
// The participant routes' answers as the contract declares them: the preview checks every answer.
const page: PageDocument = {
  data: {
    type: 'o-form-containers',
    id: '300',
    attributes: {
      identity: 'p1',
      title: 'First page',
      displayOrder: 1,
      isActive: true,
      oFormVersionId: '41',
      oFormIdentity: 'heart',
      oFormContainerTypeId: 'root_container',
      parentId: null,
      translations: {},
    },
    relationships: { parentOFormContainer: { data: null }, childOFormContainers: { data: [] }, oFormFields: { data: [] } },
  },
  included: [],
};
const saved: PageSavedMeta = { success: true, nextContainerIdentity: null, nextContainerEntryId: null, nextOFormIdentity: null, nextPage: null };

const previews: string[] = [];
const leadCalls: unknown[] = [];
const handler: Handler = async (request, url) => {
  const path = url.pathname.replace(/^\/api\//, '');
  if (path === 'media-channels/12') return json(resourceDocument('media-channels', channel));
  if (path === 'media-channel-surveys')
    return json(
      listDocument('media-channel-surveys', [
        { id: 1, mediaChannelId: 12, oFormIdentity: 'heart', isActive: true, title: 'Heart survey', version: 2, isApproved: false },
      ]),
    );
  if (path === 'screener-surveys') return json(listDocument(path, []));
  if (path === 'o-forms/o-forms' && url.searchParams.get('identity') === 'heart') return json(listDocument('o-forms', [version]));
  if (path === 'o-forms/o-forms/41') {
    return json({
      data: {
        type: 'o-forms',
        id: '41',
        attributes: { ...version, id: undefined },
        relationships: { languages: { data: [{ type: 'languages', id: '2' }] }, oFormContainers: { data: [] } },
      },
      included: [{ type: 'languages', id: '2', attributes: { name: 'Español', description: 'Spanish', isoCode: 'es' } }],
    });
  }
  if (path === 'o-forms/o-form-containers') return json(page);
  if (path === 'leads/preview-form' || path === 'leads/preview') {
    const sent = JSON.parse(await request.text()) as { data: { type: string; attributes: Record<string, unknown> } };
    leadCalls.push([path, sent.data.type, sent.data.attributes]);
    if (path === 'leads/preview')
      return json({ meta: { outcome: 'noTrialSites', leadKept: false, messages: { contactForm: '<p>Thank you.</p>', consent: '' } } });
    return json({
      data: [{ type: 'contact-fields', id: '7', attributes: { name: 'email', label: 'E-mail', fieldType: 'email', required: true, translations: {} } }],
      meta: { outcome: 'noTrialSites', messages: { contactForm: '<p>No site near you yet.</p>', consent: 'Tell me when one opens.' } },
    });
  }
  if (path === 'o-forms/o-form-submission-page-preview/300') {
    previews.push(`${request.method} ${url.searchParams.get('language')} ${await request.text()}`);
    return json({ meta: saved });
  }
  return undefined;
};

// widget.js loads once per page (PreviewPanel's loadWidget keeps its module): one mount for every test.
const mount = vi.fn((el: HTMLElement, _options: Record<string, unknown>) => ({ root: el.shadowRoot ?? el.attachShadow({ mode: 'open' }), unmount: vi.fn() }));
beforeEach(() => {
  mount.mockClear();
  window.TrialWidget = { ready: Promise.resolve({ start: vi.fn(), mount }) };
});
afterEach(() => {
  delete window.TrialWidget;
});

describe('Media channel preview', () => {
  /** The channel view with version 2 chosen in `language`; `outcome` picked when given; Preview pressed. */
  async function previewed(language: string, outcome?: string) {
    renderAdmin({ path: '/media-channels/view/12', user: makeUser('Admin'), handler });
    const survey = await screen.findByRole('combobox', { name: 'Survey' }, { timeout: 4000 });
    fireEvent.focus(survey);
    fireEvent.mouseDown(await screen.findByRole('option', { name: 'Heart survey (version 2, not approved)' }));
    const versionSelect = screen.getByLabelText('Version') as HTMLSelectElement;
    await waitFor(() => expect(versionSelect.textContent).toContain('Version 2'));
    fireEvent.change(versionSelect, { target: { value: '41' } });
    const languageSelect = screen.getByLabelText('Language') as HTMLSelectElement;
    await waitFor(() => expect(languageSelect.textContent).toContain('Español'));
    fireEvent.change(languageSelect, { target: { value: language } });
    if (outcome) fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: outcome } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(mount).toHaveBeenCalledTimes(1));
    return (mount.mock.calls[0]![1] as { transport: RunnerTransport & Partial<ContactTransport> }).transport;
  }

  it("ends at the outcome chosen: a lead's form from the staff API's preview, its Submit thanked, no lead kept", async () => {
    const outcomes = await (async () => {
      renderAdmin({ path: '/media-channels/view/12', user: makeUser('Admin'), handler });
      const select = (await screen.findByLabelText('Outcome', {}, { timeout: 4000 })) as HTMLSelectElement;
      const labels = [...select.options].map((o) => [o.value, o.text]);
      cleanup();
      return [labels, select.value];
    })();
    expect(outcomes).toEqual([
      [
        ['qualified', 'Qualified'],
        ['notQualified', 'Not qualified'],
        ['noTrialSites', 'No trial sites'],
        ['notActive', 'Not active'],
      ],
      'qualified',
    ]);

    leadCalls.length = 0;
    const t = await previewed('es', 'noTrialSites');
    expect(await t.qualification('')).toEqual({ isQualified: false, outcome: 'noTrialSites' });
    const form = await t.leadFields!('', '');
    expect(form).toMatchObject({
      fields: [{ id: '7', name: 'email', fieldType: 'email', required: true }],
      messages: { contactForm: '<p>No site near you yet.</p>', consent: 'Tell me when one opens.' },
    });
    expect(await t.submitLead!('', { values: { email: 'ann@example.com' }, acceptTerms: true, zip: null })).toEqual({
      ok: true,
      messages: { contactForm: '<p>Thank you.</p>', consent: '' },
    });
    const request = { kind: 'noTrialSites', screenerId: 5, oFormId: 41, language: 'es' };
    expect(leadCalls).toEqual([
      ['leads/preview-form', 'lead-previews', request],
      ['leads/preview', 'lead-previews', { ...request, values: { email: 'ann@example.com' }, acceptTerms: true, zip: null }],
    ]);
    // Nothing of a run: no submission, no referral's steps.
    await expect(t.createSubmission({ id: '41', identity: 'heart', title: 'Heart survey', containerCount: 1 })).rejects.toThrow('stores nothing');
    await expect(t.sites!('', '10001')).rejects.toThrow('stores nothing');
  }, 20_000);

  it('ends qualified when no other outcome is chosen, with no lead form to show', async () => {
    const t = await previewed('en');
    expect(await t.qualification('')).toEqual({ isQualified: true, outcome: 'qualified' });
    expect(t.leadFields).toBeUndefined();
  }, 20_000);

  it('mounts the participant widget in preview mode for an unapproved version, in the chosen language, over the page-preview endpoint', async () => {
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
