import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, makeUser, renderAdmin, type Handler } from './helpers';

const message = (id: number, extra: Record<string, unknown> = {}) => ({
  type: 'messages',
  id: String(id),
  attributes: {
    kind: 'participantConfirmation',
    audience: 'participant',
    recipient: 'participant',
    engagementId: 12,
    referralId: 7,
    language: 'es',
    subject: 'Gracias por su interés en Heart study',
    messageId: `<m${id}@recruit.example>`,
    status: 'waiting',
    attempts: 0,
    lastError: 'not sent: no mail server configured',
    nextAttemptAt: '2026-11-23T12:30:00Z',
    lastAttemptAt: null,
    sentAt: null,
    created: '2026-11-23T12:30:00Z',
    ...extra,
  },
});

describe('Messages', () => {
  it('lists the outbox with its status and error, reveals an address only on request, and resends', async () => {
    const calls: string[] = [];
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (request.method !== 'GET') calls.push(`${request.method} ${path}`);
      if (path === 'messages' && request.method === 'GET') {
        return json({ data: [message(2), message(1, { kind: 'newReferral', audience: 'staff', recipient: 'demo.coordinator', status: 'sent', lastError: null, attempts: 1, sentAt: '2026-11-23T12:31:00Z' })], meta: { total: 2, page: 1, limit: 20 } });
      }
      if (path === 'engagements') return json({ data: [{ type: 'engagements', id: '12', attributes: { name: 'Heart study' } }], meta: { total: 1, page: 1, limit: 1000 } });
      if (path === 'messages/2/reveal') return json({ meta: { to: 'ana@example.com' } });
      if (path === 'messages/2/resend') return json({ data: message(2, { status: 'sent', attempts: 1, lastError: null }) });
      return undefined;
    };
    renderAdmin({ path: '/messages?status=waiting', user: makeUser('Admin'), handler });
    await screen.findByRole('table', { name: 'Messages' });
    await screen.findByText('not sent: no mail server configured');
    expect(screen.getByText('demo.coordinator')).toBeTruthy();
    expect(screen.queryByText('ana@example.com')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal the address of message 2' }));
    await screen.findByText('ana@example.com');
    // A sent message offers no resend.
    expect(screen.queryByRole('button', { name: 'Resend message 1' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resend message 2' }));
    await waitFor(() => expect(calls).toEqual(['POST messages/2/reveal', 'POST messages/2/resend']));
  });
});
