import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RESEND_CONFIRMATION } from '../../admin/sections/rms-audits/Index';
import { json, makeUser, renderAdmin, type Handler } from './helpers';

const audit = (id: number, contactId: number, extra: Record<string, unknown> = {}) => ({
  type: 'rms-audits',
  id: String(id),
  attributes: {
    contactId,
    created: `2026-11-2${id}T10:00:00Z`,
    rmsProviderId: 3,
    rmsProviderName: 'Study webhook',
    succeeded: false,
    attempt: 3,
    responseMessage: 'HTTP 500 Internal Server Error',
    responseBody: '{"error":"database unavailable"}',
    ...extra,
  },
  relationships: { rmsProviders: { data: { type: 'rms-providers', id: '3' } } },
});

const PROVIDER = { type: 'rms-providers', id: '3', attributes: { name: 'Study webhook', kind: 'webhook' } };

function server(options: { resend?: () => Promise<Response> } = {}): Handler {
  return async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'rms-audits' && request.method === 'GET') {
      return json({ data: [audit(2, 41), audit(1, 40, { succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK', responseBody: '' })], included: [PROVIDER], meta: { total: 2, page: 1, limit: 20 } });
    }
    if (path === 'resend-rms-audit/41' && request.method === 'POST') {
      return options.resend
        ? options.resend()
        : json({ data: audit(3, 41, { succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' }), included: [PROVIDER], meta: { attempts: 1, succeeded: true } }, 201);
    }
    return undefined;
  };
}

describe('RMS audits', () => {
  it('lists audits newest first with their record system, outcome and the response to expand', async () => {
    const { server: api } = renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler: server() });
    const table = await screen.findByRole('table');
    await within(table).findAllByText('Study webhook (webhook)');
    const first = api.requests.find((r) => r.path === 'rms-audits')!;
    expect(first.query.get('include')).toBe('rmsProviders');
    expect(first.query.get('sort')).toBe('-created');
    expect(first.query.get('limit')).toBe('20');

    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('41')).toBeTruthy();
    expect(within(rows[0]!).getByText('Failed (attempt 3)')).toBeTruthy();
    expect(within(rows[1]!).getByText('Succeeded')).toBeTruthy();

    // The response body sits in a disclosure under its message.
    const body = screen.getByLabelText('Response body of audit 2');
    expect(body.textContent).toBe('{"error":"database unavailable"}');
    const details = body.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(within(details).getByText('HTTP 500 Internal Server Error'));
    expect(details.open).toBe(true);
    expect(screen.getByLabelText('Response body of audit 1').textContent).toBe('The record system sent no body.');

    fireEvent.click(screen.getByRole('button', { name: /Contact/ }));
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'rms-audits').at(-1)!.query.get('sort')).toBe('contactId'));
  });

  it('resends after a confirmation, shows the progress, reports the outcome and reloads', async () => {
    let answer!: (response: Response) => void;
    const pending = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const { server: api } = renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler: server({ resend: () => pending }) });
    const button = await screen.findByRole('button', { name: 'Resend contact 41' });

    // Cancelling sends nothing.
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(RESEND_CONFIRMATION(41));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.click(button);
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resend contact 41' }).textContent).toBe('Resending…'));
    expect((screen.getByRole('button', { name: 'Resend contact 41' }) as HTMLButtonElement).disabled).toBe(true);
    const listsBefore = api.requests.filter((r) => r.path === 'rms-audits').length;

    answer(json({ data: audit(3, 41, { succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' }), included: [PROVIDER], meta: { attempts: 1, succeeded: true } }, 201));
    expect(await screen.findByText('Contact 41: HTTP 200 OK')).toBeTruthy();
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'rms-audits').length).toBe(listsBefore + 1));
    expect(screen.getByRole('button', { name: 'Resend contact 41' }).textContent).toBe('Resend');
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['resend-rms-audit/41']);
  });

  it('reports a resend the server refuses', async () => {
    renderAdmin({
      path: '/rms-audits',
      user: makeUser('Super User'),
      handler: server({ resend: async () => json({ errors: [{ status: '404', title: 'Not Found', detail: "The contact you're looking for is not here." }] }, 404) }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Resend contact 41' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText("The contact you're looking for is not here.")).toBeTruthy();
  });
});
