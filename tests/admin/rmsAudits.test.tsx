import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { BULK_CONFIRMATION, RESEND_CONFIRMATION, SEND_AGAIN_CONFIRMATION } from '../../admin/sections/rms-audits/Index';
import { json, makeUser, renderAdmin, type Handler, type Recorded } from './helpers';

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
    engagementId: 12,
    deliveryStatus: 'retrying',
    nextAttemptAt: '2026-11-23T12:30:00Z',
    deliveredAt: null,
    referralId: '5f0c2b1e-1d2c-4b5a-9e8f-0a1b2c3d4e5f',
    referralRecordId: String(contactId + 100),
    ...extra,
  },
  relationships: { rmsProviders: { data: { type: 'rms-providers', id: '3' } } },
});

const PROVIDER = { type: 'rms-providers', id: '3', attributes: { name: 'Study webhook', kind: 'webhook' } };

const DELIVERED = {
  succeeded: true,
  attempt: 1,
  responseMessage: 'HTTP 200 OK',
  responseBody: '',
  deliveryStatus: 'delivered',
  nextAttemptAt: null,
  deliveredAt: '2026-11-21T10:00:00Z',
};

/** The query of the last list call the screen made. */
const lastListQuery = (api: { requests: readonly Recorded[] }) => api.requests.filter((r) => r.path === 'rms-audits').at(-1)!.query;

function server(options: { resend?: () => Promise<Response> } = {}): Handler {
  return async (request, url) => {
    const path = url.pathname.replace(/^\/api\//, '');
    if (path === 'rms-audits' && request.method === 'GET') {
      return json({ data: [audit(2, 41), audit(1, 40, DELIVERED)], included: [PROVIDER], meta: { total: 2, page: 1, limit: 20 } });
    }
    if (path === 'rms-providers') return json({ data: [PROVIDER], meta: { total: 1, page: 1, limit: 1000 } });
    if (path === 'engagements')
      return json({ data: [{ type: 'engagements', id: '12', attributes: { name: 'Heart study' } }], meta: { total: 1, page: 1, limit: 1000 } });
    if (path === 'resend-rms-audit' && request.method === 'POST') return json({ meta: { queued: 3 } });
    if (path === 'resend-rms-audit/40' && request.method === 'POST') {
      return json(
        { data: audit(4, 40, { succeeded: true, attempt: 2, responseMessage: 'HTTP 200 OK' }), included: [PROVIDER], meta: { succeeded: true } },
        201,
      );
    }
    if (path === 'resend-rms-audit/41' && request.method === 'POST') {
      return options.resend
        ? options.resend()
        : json(
            {
              data: audit(3, 41, { succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' }),
              included: [PROVIDER],
              meta: { attempts: 1, succeeded: true },
            },
            201,
          );
    }
    return undefined;
  };
}

describe('RMS audits', () => {
  it('marks a contact whose run was a possible retake, beside its id', async () => {
    const base = server();
    const handler: Handler = (request, url) =>
      url.pathname === '/api/rms-audits' && request.method === 'GET'
        ? json({
            data: [audit(2, 41, { possibleRetake: true }), audit(1, 40, { ...DELIVERED, possibleRetake: false })],
            included: [PROVIDER],
            meta: { total: 2, page: 1, limit: 20 },
          })
        : base(request, url);
    renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler });
    const table = await screen.findByRole('table');
    await within(table).findAllByText('Study webhook (webhook)');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Possible retake')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Possible retake')).toBeNull();
  });

  it("shows where a contact came from: its campaign parameters and the channel's hidden fields", async () => {
    const base = server();
    const attribution = { utm: { utm_source: 'newsletter', utm_campaign: 'spring' }, hiddenFields: { partner_ref: 'ref-9' } };
    const handler: Handler = (request, url) =>
      url.pathname === '/api/rms-audits' && request.method === 'GET'
        ? json({
            data: [audit(2, 41, attribution), audit(1, 40, { ...DELIVERED, utm: {}, hiddenFields: {} })],
            included: [PROVIDER],
            meta: { total: 2, page: 1, limit: 20 },
          })
        : base(request, url);
    renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler });
    const shown = await screen.findByLabelText('Attribution of contact 41');
    expect([...shown.querySelectorAll('div')].map((d) => d.textContent)).toEqual(['utm_source newsletter', 'utm_campaign spring', 'partner_ref ref-9']);
    expect(screen.queryByLabelText('Attribution of contact 40')).toBeNull();
  });

  it('lists audits newest first with their record system, outcome and the response to expand', async () => {
    const { server: api } = renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler: server() });
    const table = await screen.findByRole('table');
    await within(table).findAllByText('Study webhook (webhook)');
    const first = api.requests.find((r) => r.path === 'rms-audits')!;
    expect(first.query.get('include')).toBe('rmsProviders');
    expect(first.query.get('sort')).toBe('-created');
    expect(first.query.get('limit')).toBe('20');

    const rows = within(table).getAllByRole('row').slice(1);
    // The contact is named by its referral, a link to the referral's view.
    expect(within(rows[0]!).getByRole('link', { name: 'Referral 141' }).getAttribute('href')).toBe('/referrals/view/141');
    expect(within(rows[0]!).getByText('Failed (attempt 3)')).toBeTruthy();
    expect(within(rows[1]!).getByText('Succeeded')).toBeTruthy();
    // Where each delivery stands: retrying with its next attempt, or delivered.
    expect(within(rows[0]!).getByText('Retrying')).toBeTruthy();
    expect(within(rows[0]!).getByText(/next attempt/).textContent).toContain('2026');
    expect(within(rows[1]!).getByText('Delivered')).toBeTruthy();

    // The response body sits in a disclosure under its message.
    const body = screen.getByLabelText('Response body of audit 2');
    expect(body.textContent).toBe('{"error":"database unavailable"}');
    const details = body.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(within(details).getByText('HTTP 500 Internal Server Error'));
    expect(details.open).toBe(true);
    expect(screen.getByLabelText('Response body of audit 1').textContent).toBe('The record system sent no body.');

    fireEvent.click(screen.getByRole('button', { name: /Contact/ }));
    await waitFor(() => expect(lastListQuery(api).get('sort')).toBe('contactId'));
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

    answer(
      json(
        { data: audit(3, 41, { succeeded: true, attempt: 1, responseMessage: 'HTTP 200 OK' }), included: [PROVIDER], meta: { attempts: 1, succeeded: true } },
        201,
      ),
    );
    expect(await screen.findByText('Contact 41: HTTP 200 OK')).toBeTruthy();
    await waitFor(() => expect(api.requests.filter((r) => r.path === 'rms-audits').length).toBe(listsBefore + 1));
    expect(screen.getByRole('button', { name: 'Resend contact 41' }).textContent).toBe('Resend');
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['resend-rms-audit/41']);
  });

  it('reports a resend the server refuses', async () => {
    renderAdmin({
      path: '/rms-audits',
      user: makeUser('Super User'),
      handler: server({
        resend: async () => json({ errors: [{ status: '404', title: 'Not Found', detail: "The contact you're looking for is not here." }] }, 404),
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Resend contact 41' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText("The contact you're looking for is not here.")).toBeTruthy();
  });

  it('offers Send again for a delivered contact, warning that the receiver will see it twice', async () => {
    const { server: api } = renderAdmin({ path: '/rms-audits', user: makeUser('Super User'), handler: server() });
    expect(await screen.findByRole('button', { name: 'Resend contact 41' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send again contact 40' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(SEND_AGAIN_CONFIRMATION(40));
    expect(dialog.textContent).toContain('the receiver will see it twice');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('Contact 40: HTTP 200 OK')).toBeTruthy();
    const post = api.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('resend-rms-audit/40');
    expect(post.query.get('again')).toBe('true');
  });

  it('filters by status, record system, engagement and dates in the URL, and resends the undelivered ones shown', async () => {
    const { server: api } = renderAdmin({
      path: '/rms-audits?status=undelivered&engagementId=12&from=2026-11-01',
      user: makeUser('Super User'),
      handler: server(),
    });
    await screen.findByRole('table');
    const first = api.requests.find((r) => r.path === 'rms-audits')!;
    expect(first.query.get('status')).toBe('undelivered');
    expect(first.query.get('engagementId')).toBe('12');
    expect(first.query.get('from')).toBe('2026-11-01');
    await waitFor(() => expect((screen.getByLabelText('Engagement') as HTMLSelectElement).value).toBe('12'));
    fireEvent.change(screen.getByLabelText('Record system'), { target: { value: '3' } });
    await waitFor(() => expect(lastListQuery(api).get('rmsProviderId')).toBe('3'));

    fireEvent.click(screen.getByRole('button', { name: 'Resend undelivered' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(BULK_CONFIRMATION);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('3 undelivered contacts queued for delivery.')).toBeTruthy();
    const bulk = api.requests.find((r) => r.method === 'POST' && r.path === 'resend-rms-audit')!;
    expect(Object.fromEntries(bulk.query)).toEqual({ engagementId: '12', from: '2026-11-01', rmsProviderId: '3' });
  });
});
