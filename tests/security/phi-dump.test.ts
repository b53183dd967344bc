/**
 * PHI at rest (issue 9, "done means"): after a participant leaves contact details through the
 * real API — and the record system has been sent them, has echoed them back, and a Super User
 * has resent them and read the record-system audits — a dump of the whole database holds none of
 * the participant's name, e-mail or phone in clear text, nor do the staff audit trail and the
 * server's log lines.
 *
 * The dump: on PostgreSQL (TEST_DB_KIND=postgres) the real `pg_dump` of the scratch database;
 * on PGlite, every table of every schema copied out as text (what a data-only dump holds).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createHarness, type Harness } from '../server/harness';
import { createParticipantFixture, type ParticipantFixture, runQualified, sendReferralsTo } from '../support/participantFixture';
import { contactLeft } from '../server/participantServer';
import { auditEvents, rmsAudits } from '../../server/db/schema';
import { startRecordSystem, type RecordSystemReceiver } from '../support/recordSystemReceiver';
import { settleDeliveries } from '../../server/rms/worker';
import { newWebhookSecret } from '../support/standardWebhooks';
import { captureOutput } from '../support/captureOutput';

const run = promisify(execFile);
const onPostgres = process.env.TEST_DB_KIND === 'postgres';

// Distinctive values, so finding one anywhere can only mean it leaked.
const VALUES = { first_name: 'Quillonia', email: 'quillonia.vantreck@example.org', phone: '646-555-0173' };
/** Other spellings a record system may echo a value in (below): digits only, +1, escaped @, the local part. */
const ECHOED = [
  '6465550173',
  '+16465550173',
  '+1 (646) 555 0173',
  'quillonia.vantreck\\u0040example.org',
  'quillonia.vantreck&#64;example.org',
  'quillonia.vantreck',
];
/** Each value as it could appear: plain, in JSON or URL encoding (the e-mail's @), and as echoed. */
const FORMS = [
  ...Object.values(VALUES).flatMap((v) => [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]),
  '6465550173',
  '646 555 0173',
  'quillonia.vantreck',
];

let h: Harness;
let f: ParticipantFixture;
let echo: RecordSystemReceiver;
let output: ReturnType<typeof captureOutput>;

const leaks = (text: string) => FORMS.filter((form) => text.toLowerCase().includes(form.toLowerCase()));

async function textDump(): Promise<string> {
  if (onPostgres) {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DB_KIND=postgres needs TEST_DATABASE_URL');
    const [current] = ((await h.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
    const url = new URL(base);
    url.pathname = `/${current!.name}`;
    const { stdout } = await run('pg_dump', ['--no-owner', '--no-privileges', url.toString()], { maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  }
  const tables = (
    (await h.db.execute(sql`select schemaname, tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`)) as unknown as {
      rows: { schemaname: string; tablename: string }[];
    }
  ).rows;
  const parts: string[] = [];
  for (const { schemaname, tablename } of tables) {
    const name = `"${schemaname.replace(/"/g, '""')}"."${tablename.replace(/"/g, '""')}"`;
    const rows = ((await h.db.execute(sql.raw(`select x::text as line from ${name} x`))) as unknown as { rows: { line: string }[] }).rows;
    parts.push(`-- ${name}`, ...rows.map((r) => r.line));
  }
  return parts.join('\n');
}

beforeAll(async () => {
  // A record system that answers with everything it was sent, as some do.
  echo = await startRecordSystem(({ body }) => ({
    status: 200,
    contentType: 'application/json',
    // Raw text, so the escaped spellings reach us as such; first, within what an audit keeps.
    body: `{"spellings": "${ECHOED.join(' | ')}", "received": ${body}, "note": ${JSON.stringify(`got ${body}`)}}`,
  }));
  output = captureOutput();
  h = await createHarness({ LOG_LEVEL: 'debug', RMS_RETRY_SCHEDULE: 'none' });
  f = await createParticipantFixture(h.db);
  await sendReferralsTo(h.db, f, { name: 'Echoing webhook', endpointUrl: `${echo.origin}/contacts`, signingSecret: newWebhookSecret() });
});

afterAll(async () => {
  output?.restore();
  await settleDeliveries();
  await echo?.close();
  await h?.close();
});

describe('contact details at rest', () => {
  it('leave no clear-text trace in a database dump, the audit trail or the logs', async () => {
    const { submissionId, token } = await runQualified(h, f);
    const contact = await contactLeft(h, f, { submissionId, token }, VALUES);
    expect(contact).toBeDefined();
    // The record system did get the values and echoed them: the point is what we keep of that.
    const [pushed] = await h.db.select().from(rmsAudits).where(eq(rmsAudits.contactId, contact!.id));
    expect(pushed).toMatchObject({ succeeded: true, responseMessage: 'HTTP 200 OK' });
    expect(pushed!.responseBody).toContain('[redacted]');

    // Staff at work on it: a resend and a read of the record-system audits.
    const superToken = await h.token();
    const resend = await h.request('POST', `/api/resend-rms-audit/${contact!.id}?again=true`, { token: superToken });
    expect(resend.status).toBe(201);
    expect(leaks(await resend.text())).toEqual([]);
    const list = await h.request('GET', `/api/rms-audits?contactId=${contact!.id}`, { token: superToken });
    expect(leaks(await list.text())).toEqual([]);
    await settleDeliveries();

    const dump = await textDump();
    // The dump is real: it holds this run's rows (the contact's ciphertext, the fixture's site).
    expect(dump).toContain(contact!.valuesCiphertext.slice(0, 24));
    expect(dump).toContain('Manhattan site');
    expect(leaks(dump)).toEqual([]);

    const trail = await h.db.select().from(auditEvents);
    expect(trail.some((e) => e.action === 'rms-resend' && e.entityId === String(contact!.id))).toBe(true);
    expect(leaks(JSON.stringify(trail))).toEqual([]);

    expect(output.text().length).toBeGreaterThan(0);
    expect(leaks(output.text())).toEqual([]);
  });
});
