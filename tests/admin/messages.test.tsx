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

const template = (kind: string, language: string, extra: Record<string, unknown> = {}) => ({
  type: 'message-templates',
  id: `${kind}.${language}`,
  attributes: { kind, language, subject: `New referral for {{site}} (${language})`, html: '<p>{{site}}</p>', text: '{{site}}', isDefault: true, placeholders: ['engagement', 'site', 'due', 'link'], ...extra },
});

describe('Message templates', () => {
  it('edits a template, refusing an empty subject before sending anything, and previews it', async () => {
    const writes: { path: string; body: unknown }[] = [];
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (request.method !== 'GET') writes.push({ path: `${request.method} ${path}`, body: request.method === 'PATCH' ? await request.json() : null });
      if (path === 'message-templates' && request.method === 'GET') return json({ data: [template('newReferral', 'en'), template('newReferral', 'es')], meta: { total: 2, page: 1, limit: 2 } });
      if (path === 'message-templates/newReferral.en' && request.method === 'PATCH') return json({ data: template('newReferral', 'en', { isDefault: false }) });
      if (path === 'message-templates/newReferral.en/preview') return json({ meta: { subject: 'New referral for Midtown Heart Center (en)', html: '<p>Midtown Heart Center</p>', text: 'Midtown Heart Center' } });
      return undefined;
    };
    renderAdmin({ path: '/message-templates', user: makeUser('Admin'), handler });
    const subject = await screen.findByLabelText(/Subject/);
    fireEvent.change(subject, { target: { value: '' } });
    fireEvent.submit(subject.closest('form')!);
    await screen.findByText('This field is required.');
    expect(writes).toEqual([]);
    fireEvent.change(subject, { target: { value: 'Referral at {{site}}' } });
    fireEvent.submit(subject.closest('form')!);
    await waitFor(() => expect(writes.map((w) => w.path)).toEqual(['PATCH message-templates/newReferral.en']));
    expect(writes[0]!.body).toMatchObject({ data: { type: 'message-templates', attributes: { subject: 'Referral at {{site}}' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await screen.findByRole('heading', { name: 'New referral for Midtown Heart Center (en)' });
  });
});
