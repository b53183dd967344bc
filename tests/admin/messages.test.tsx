import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, makeUser, renderAdmin, type Handler } from './helpers';
import { makeEngagementAttributes } from './fixtures';

const message = (id: number, extra: Record<string, unknown> = {}) => ({
  type: 'messages',
  id: String(id),
  attributes: {
    kind: 'participantConfirmation',
    channel: 'email',
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
        return json({
          data: [
            message(2),
            message(1, {
              kind: 'newReferral',
              audience: 'staff',
              recipient: 'demo.coordinator',
              status: 'sent',
              lastError: null,
              attempts: 1,
              sentAt: '2026-11-23T12:31:00Z',
            }),
          ],
          meta: { total: 2, page: 1, limit: 20 },
        });
      }
      if (path === 'engagements')
        return json({ data: [{ type: 'engagements', id: '12', attributes: { name: 'Heart study' } }], meta: { total: 1, page: 1, limit: 1000 } });
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

  it("shows each message's channel and filters on it", async () => {
    const queries: string[] = [];
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'messages' && request.method === 'GET') {
        const channel = url.searchParams.get('channel');
        queries.push(channel ?? '');
        const rows = [message(3, { channel: 'sms', subject: 'Text message' }), message(2)].filter((m) => !channel || m.attributes.channel === channel);
        return json({ data: rows, meta: { total: rows.length, page: 1, limit: 20 } });
      }
      if (path === 'engagements') return json({ data: [], meta: { total: 0, page: 1, limit: 1000 } });
      return undefined;
    };
    renderAdmin({ path: '/messages', user: makeUser('Admin'), handler });
    const table = await screen.findByRole('table', { name: 'Messages' });
    await screen.findByText('Text message');
    expect(screen.getByRole('columnheader', { name: /Channel/ })).toBeTruthy();
    const cells = Array.from(table.querySelectorAll('tbody tr')).map((row) => Array.from(row.querySelectorAll('td')).map((td) => td.textContent));
    expect(cells.map((row) => (row.includes('SMS') ? 'SMS' : row.includes('E-mail') ? 'E-mail' : null))).toEqual(['SMS', 'E-mail']);
    fireEvent.change(screen.getByLabelText('Channel'), { target: { value: 'sms' } });
    await waitFor(() => expect(queries.at(-1)).toBe('sms'));
    await waitFor(() => expect(screen.queryByText('Gracias por su interés en Heart study')).toBeNull());
    expect(screen.getByText('Text message')).toBeTruthy();
  });
});

const template = (kind: string, language: string, extra: Record<string, unknown> = {}) => ({
  type: 'message-templates',
  id: `${kind}.${language}`,
  attributes: {
    kind,
    language,
    channel: 'email',
    subject: `New referral for {{site}} (${language})`,
    html: '<p>{{site}}</p>',
    text: '{{site}}',
    isDefault: true,
    placeholders: ['engagement', 'site', 'due', 'link'],
    ...extra,
  },
});

const textTemplate = (language: string, text: string, isDefault = true) => ({
  type: 'message-templates',
  id: `participantConfirmation.${language}.sms`,
  attributes: { kind: 'participantConfirmation', language, channel: 'sms', text, isDefault, placeholders: ['engagement', 'site', 'town'] },
});

/**
 * Submits `field`'s form holding `refused`: the form says `problem` and sends nothing. Then
 * holding `accepted`: the one write sent is the PATCH of `path`.
 */
async function refusedThenSent(field: HTMLElement, writes: { path: string }[], [refused, problem]: [string, string], accepted: string, path: string) {
  fireEvent.change(field, { target: { value: refused } });
  fireEvent.submit(field.closest('form')!);
  await screen.findByText(problem);
  expect(writes).toEqual([]);
  fireEvent.change(field, { target: { value: accepted } });
  fireEvent.submit(field.closest('form')!);
  await waitFor(() => expect(writes.map((w) => w.path)).toEqual([`PATCH ${path}`]));
}

describe('Message templates', () => {
  it('edits a template, refusing an empty subject before sending anything, and previews it', async () => {
    const writes: { path: string; body: unknown }[] = [];
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (request.method !== 'GET') writes.push({ path: `${request.method} ${path}`, body: request.method === 'PATCH' ? await request.json() : null });
      if (path === 'message-templates' && request.method === 'GET')
        return json({ data: [template('newReferral', 'en'), template('newReferral', 'es')], meta: { total: 2, page: 1, limit: 2 } });
      if (path === 'message-templates/newReferral.en' && request.method === 'PATCH') return json({ data: template('newReferral', 'en', { isDefault: false }) });
      if (path === 'message-templates/newReferral.en/preview')
        return json({ meta: { subject: 'New referral for Midtown Heart Center (en)', html: '<p>Midtown Heart Center</p>', text: 'Midtown Heart Center' } });
      return undefined;
    };
    renderAdmin({ path: '/message-templates', user: makeUser('Admin'), handler });
    const subject = await screen.findByLabelText(/Subject/);
    await refusedThenSent(subject, writes, ['', 'This field is required.'], 'Referral at {{site}}', 'message-templates/newReferral.en');
    expect(writes[0]!.body).toMatchObject({ data: { type: 'message-templates', attributes: { subject: 'Referral at {{site}}' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await screen.findByRole('heading', { name: 'New referral for Midtown Heart Center (en)' });
  });
});

describe('Text (SMS) templates', () => {
  it('edits a text as plain text with its length, refusing one that does not say STOP before sending anything, and previews it', async () => {
    const writes: { path: string; body: unknown }[] = [];
    const shipped = '{{engagement}}: gracias. {{site}} ({{town}}) se pondrá en contacto con usted. Responda STOP para no recibir más mensajes.';
    const handler: Handler = async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (request.method !== 'GET') writes.push({ path: `${request.method} ${path}`, body: request.method === 'PATCH' ? await request.json() : null });
      if (path === 'message-templates' && request.method === 'GET')
        return json({
          data: [template('newReferral', 'en'), textTemplate('en', 'Reply STOP'), textTemplate('es', shipped)],
          meta: { total: 3, page: 1, limit: 3 },
        });
      if (path === 'message-templates/participantConfirmation.es.sms' && request.method === 'PATCH')
        return json({ data: textTemplate('es', 'Gracias. Responda STOP.', false) });
      if (path === 'message-templates/participantConfirmation.es.sms/preview')
        return json({ meta: { text: 'Healthy Heart Study: gracias. Responda STOP.', characters: 44, encoding: 'GSM-7', segments: 1 } });
      return undefined;
    };
    renderAdmin({ path: '/message-templates', user: makeUser('Admin'), handler });
    const chooser = await screen.findByLabelText('Template');
    expect(screen.getByRole('option', { name: 'Participant confirmation · Spanish · SMS' })).toBeTruthy();
    fireEvent.change(chooser, { target: { value: 'participantConfirmation.es.sms' } });
    const text = await screen.findByLabelText(/Text \(SMS\)/);
    // Plain text only: no subject, no HTML.
    expect(screen.queryByLabelText(/Subject/)).toBeNull();
    expect(screen.queryByLabelText(/HTML/)).toBeNull();
    // The Spanish default holds á, so it goes as UCS-2 (70 characters a segment).
    expect(screen.getByText(/As typed: 121 characters · 2 segments \(UCS-2\)/)).toBeTruthy();
    fireEvent.change(text, { target: { value: 'Gracias, le llamaremos.' } });
    expect(screen.getByText(/As typed: 23 characters · 1 segment \(GSM-7\)/)).toBeTruthy();
    await refusedThenSent(
      text,
      writes,
      ['Gracias, le llamaremos.', 'Say how to opt out: the text must hold the word STOP.'],
      'Gracias. Responda STOP.',
      'message-templates/participantConfirmation.es.sms',
    );
    expect(writes[0]!.body).toEqual({
      data: { type: 'message-templates', id: 'participantConfirmation.es.sms', attributes: { text: 'Gracias. Responda STOP.' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    await screen.findByText('Healthy Heart Study: gracias. Responda STOP.');
    expect(screen.getByText('As sent: 44 characters · 1 segment (GSM-7)')).toBeTruthy();
  });
});

const setting = (kind: string, isEnabled: boolean, delayMinutes = 0) => ({
  type: 'message-settings',
  id: `12.${kind}`,
  attributes: { engagementId: 12, kind, isEnabled, delayMinutes },
});

describe("An engagement's message settings", () => {
  const engagement = makeEngagementAttributes();
  const server =
    (writes: { path: string; body: unknown }[]): Handler =>
    async (request, url) => {
      const path = url.pathname.replace(/^\/api\//, '');
      if (path === 'engagements/12') return json({ data: { type: 'engagements', id: '12', attributes: engagement } });
      if (path === 'message-settings' && request.method === 'GET') {
        expect(url.searchParams.get('engagementId')).toBe('12');
        return json({
          data: [
            setting('newReferral', true),
            setting('firstContactOverdue', false),
            setting('participantConfirmation', false),
            setting('participantReminder', true, 60),
          ],
          meta: { total: 4, page: 1, limit: 4 },
        });
      }
      if (path.startsWith('message-settings/') && request.method === 'PATCH') {
        const body = (await request.json()) as { data: { attributes: unknown } };
        writes.push({ path, body: body.data.attributes });
        return json({ data: setting(path.split('.')[1]!, true, 15) });
      }
      return undefined;
    };

  it('turns a message on with a delay, refusing a bad delay before sending anything', async () => {
    const writes: { path: string; body: unknown }[] = [];
    renderAdmin({ path: '/engagements/view/12', user: makeUser('Admin'), handler: server(writes) });
    const send = await screen.findByRole('checkbox', { name: 'Send Participant confirmation' });
    expect((send as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Send New referral' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(send);
    const delay = screen.getByRole('spinbutton', { name: 'Delay of Participant confirmation, minutes' });
    fireEvent.change(delay, { target: { value: '-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Messages' }));
    await screen.findByText('At least 0.');
    expect(writes).toEqual([]);
    fireEvent.change(delay, { target: { value: '15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Messages' }));
    // Only the row that changed is written.
    await waitFor(() => expect(writes).toEqual([{ path: 'message-settings/12.participantConfirmation', body: { isEnabled: true, delayMinutes: 15 } }]));
  });

  it('shows them to a User without letting them change', async () => {
    renderAdmin({ path: '/engagements/view/12', user: makeUser('User'), handler: server([]) });
    const send = await screen.findByRole('checkbox', { name: 'Send New referral' });
    expect((send as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save Messages' })).toBeNull();
  });
});
