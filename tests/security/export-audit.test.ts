/**
 * Every export and every record-system resend leaves an audit event (issue 9, audit trail):
 * the audit-trail CSV, the survey PDF (the link asked for and the file fetched), the metrics
 * CSV, an engagement file's download, and POST /api/resend-rms-audit. An export that is refused
 * leaves none, and a resend's event keeps ids and outcome only — never the record system's answer,
 * which may echo the participant's details.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, gt } from 'drizzle-orm';
import { createHarness, json, type Harness } from '../server/harness';
import { createParticipantFixture, leaveContact, type ParticipantFixture, runQualified, sendReferralsTo } from '../support/participantFixture';
import { auditEvents, contacts } from '../../server/db/schema';
import { verifyAuditChain } from '../../server/audit/trail';
import { startRecordSystem, type RecordSystemReceiver } from '../support/recordSystemReceiver';
import { settleDeliveries } from '../../server/rms/worker';
import { newWebhookSecret } from '../support/standardWebhooks';

const VALUES = { first_name: 'Ottoline', email: 'ottoline.brisk@example.net', phone: '917-555-0110' };

let h: Harness;
let f: ParticipantFixture;
let superToken: string;
let dataDir: string;
let echo: RecordSystemReceiver;

beforeAll(async () => {
  echo = await startRecordSystem((request) => ({ status: 200, contentType: 'application/json', body: request.body }));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-audit-'));
  h = await createHarness({ DATA_DIR: dataDir, RMS_RETRY_SCHEDULE: 'none' });
  superToken = await h.token();
  f = await createParticipantFixture(h.db);
  await sendReferralsTo(h.db, f, { name: 'Echo', endpointUrl: `${echo.origin}/`, signingSecret: newWebhookSecret() });
});
afterAll(async () => {
  await settleDeliveries();
  await echo.close();
  await h.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const lastId = async () => (await h.db.select({ id: auditEvents.id }).from(auditEvents).orderBy(auditEvents.id)).at(-1)?.id ?? 0;
const eventsAfter = (id: number) => h.db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id);

/** Runs `call`; answers its response and the audit events it wrote. */
async function audited(call: () => Promise<Response>) {
  const mark = await lastId();
  const res = await call();
  await res.arrayBuffer();
  return { res, events: await eventsAfter(mark) };
}

describe('exports are audited', () => {
  it('records the audit-trail CSV export, with its filters', async () => {
    const { res, events } = await audited(() => h.request('GET', '/api/audit-events/export?entity=sponsors', { token: superToken }));
    expect(res.status).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorUsername: 'admin',
      entity: 'audit-events',
      entityId: null,
      action: 'export',
      meta: { format: 'csv', filters: { entity: 'sponsors' }, status: 200 },
    });
  });

  it("records the survey PDF's link and the PDF itself", async () => {
    const link = await audited(() => h.request('POST', `/api/o-forms/export-to-pdf/${f.oFormId}/1`, { token: superToken }));
    expect(link.res.status).toBe(200);
    expect(link.events).toHaveLength(1);
    expect(link.events[0]).toMatchObject({
      entity: 'o-forms',
      entityId: String(f.oFormId),
      action: 'export-link',
      meta: { format: 'pdf', showApproved: true },
    });
    const pdf = await audited(() => h.request('GET', `/api/o-forms/o-form-exports/${f.oFormId}`, { token: superToken }));
    expect(pdf.res.status).toBe(200);
    expect(pdf.events.map((e) => [e.entity, e.entityId, e.action, (e.meta as { format?: string }).format])).toEqual([
      ['o-forms', String(f.oFormId), 'export', 'pdf'],
    ]);
  });

  it('records the metrics CSV', async () => {
    const { res, events } = await audited(() => h.request('GET', `/api/export-survey-metrics/${f.oFormId}`, { token: superToken }));
    expect(res.status).toBe(200);
    expect(events.map((e) => [e.entity, e.entityId, e.action, e.meta])).toEqual([
      ['o-forms', String(f.oFormId), 'export', expect.objectContaining({ format: 'csv', content: 'metrics' })],
    ]);
  });

  it("records an engagement file's download", async () => {
    const form = new FormData();
    form.set('file', new Blob(['protocol text'], { type: 'text/plain' }), 'protocol.txt');
    const uploaded = await json(
      await h.app.request(`/api/engagements-o-files/${f.engagementIds[0]}`, { method: 'POST', headers: { Authorization: `Bearer ${superToken}` }, body: form }),
    );
    const fileId = uploaded.data.id as string;
    const { res, events } = await audited(() => h.request('GET', `/api/engagements-o-files/${fileId}/download`, { token: superToken }));
    expect(res.status).toBe(200);
    expect(events.map((e) => [e.entity, e.entityId, e.action])).toEqual([['engagements-o-files', fileId, 'download']]);
  });

  it('records nothing for an export that is refused or of nothing', async () => {
    await h.createUser({ username: 'export-audit-user', password: 'export-audit-pass', roles: ['User'] });
    const user = await h.token('export-audit-user', 'export-audit-pass');
    const mark = await lastId();
    expect((await h.request('GET', '/api/audit-events/export', { token: user })).status).toBe(403);
    expect((await h.request('GET', `/api/o-forms/o-form-exports/${f.oFormId}`, { token: user })).status).toBe(404);
    expect((await h.request('GET', '/api/export-survey-metrics/999999', { token: superToken })).status).toBe(404);
    expect((await h.request('POST', '/api/o-forms/export-to-pdf/999999/0', { token: superToken })).status).toBe(404);
    expect(await eventsAfter(mark)).toEqual([]);
  });
});

describe('record-system resends are audited', () => {
  it("records who resent which contact, the attempts and the outcome — and nothing of the record system's answer", async () => {
    const { submissionId, token } = await runQualified(h, f);
    const posted = await leaveContact(h, f, { submissionId, token }, VALUES);
    expect(posted.status).toBe(201);
    await settleDeliveries();
    const [contact] = await h.db
      .select()
      .from(contacts)
      .where(eq(contacts.submissionId, Number(submissionId)));

    // Delivered already: sent again on purpose.
    const { res, events } = await audited(() => h.request('POST', `/api/resend-rms-audit/${contact!.id}?again=true`, { token: superToken }));
    expect(res.status).toBe(201);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({ actorUsername: 'admin', entity: 'contacts', entityId: String(contact!.id), action: 'rms-resend', changes: {} });
    expect(event.meta).toMatchObject({ again: true, succeeded: true, status: 201, rmsAuditId: expect.any(Number) });
    const text = JSON.stringify(event);
    expect(text).not.toContain('responseBody');
    for (const value of Object.values(VALUES)) expect(text).not.toContain(value);

    const missing = await audited(() => h.request('POST', '/api/resend-rms-audit/999999', { token: superToken }));
    expect(missing.res.status).toBe(404);
    expect(missing.events).toEqual([]);
  });

  it('keeps the chain whole with these events in it', async () => {
    expect(await verifyAuditChain(h.db)).toMatchObject({ ok: true });
  });
});
