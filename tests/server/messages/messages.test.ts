/**
 * Messages through the outbox, on the real server and database with a real SMTP server in the
 * test (smtp-server on 127.0.0.1, messages parsed with mailparser): a referral on the demo
 * channel mails the site's coordinator and the sponsor's recruiter a working link and none of
 * the participant's answers or contact values (asserted on the raw message), and the participant
 * a confirmation in their language with RFC 8058 one-click unsubscribe, which stops further
 * participant mail; retries on MESSAGE_RETRY_SCHEDULE with the same Message-ID; the overdue
 * reminder; no SMTP_URL -> waiting, then sent once a server is configured; templates, settings,
 * the staff list, reveal and resend, and bad input refused with nothing written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { MESSAGE_KINDS } from '@core/model/message';
import { DEMO_COORDINATOR, DEMO_COORDINATOR_EMAIL, seedDemoRun } from '../../../server/demo';
import { auditEvents, engagements, messages, referrals, sponsors, users } from '../../../server/db/schema';
import { messageOptionsOf, sendDue, settleMessages } from '../../../server/messages/worker';
import { NO_MAIL_SERVER, purgeBodies } from '../../../server/messages/outbox';
import { hashPassword } from '../../../server/auth/passwords';
import { createHarness, doc, json, type Harness } from '../harness';
import { mailEnv, useMessageReceiver } from './messageReceiver';
import { demoPerson, runDemoChannel } from '../../support/demoChannelRun';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtpReceiver';

const T0 = new Date('2031-05-06T09:00:00.000Z');
const HOUR = 3600_000;
const silentLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let smtp: SmtpReceiver;
let h: Harness;
let admin: string;
let channel: { mediaChannelId: number; screenerId: number };
let engagementId: number;
const RECRUITER_EMAIL = 'recruiter@northwind.example';

/** A run of the demo channel to a referral; the contact values given. */
async function demoReferral(harness: Harness, language: 'en' | 'es', values: Record<string, string>) {
  const { state } = await runDemoChannel(harness, channel, { language, values });
  expect(state).toMatchObject({ phase: 'finished', outcome: 'completed' });
  const [referral] = await harness.db
    .select()
    .from(referrals)
    .orderBy(referrals.id)
    .limit(1)
    .offset((await harness.db.select().from(referrals)).length - 1);
  return referral!;
}

/** The kinds due at the first contact's due time, not at once. */
const atDueTime = (kind: string) => kind === 'firstContactOverdue' || kind === 'participantReminder';
const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  h = await createHarness(mailEnv(smtp, { MESSAGE_RETRY_SCHEDULE: '60,300' }));
  h.clock.set(T0);
  admin = await h.token();
  channel = await seedDemoRun(h.db);
  const [engagement] = await h.db.select().from(engagements).where(eq(engagements.identification, 'DEMO-HEART'));
  engagementId = engagement!.id;
  const [sponsor] = await h.db.select().from(sponsors).where(eq(sponsors.identification, 'NWT'));
  const recruiter = await h.createUser({ username: 'recruiter', roles: ['User'], sponsorIds: [sponsor!.id] });
  await h.db.update(users).set({ email: RECRUITER_EMAIL }).where(eq(users.id, recruiter));
});

useMessageReceiver(() => ({ h, receiver: smtp }), T0);

describe('a referral on the demo channel', () => {
  it('mails the coordinator and the recruiter a working link and nothing of the participant', async () => {
    const values = demoPerson(1);
    const referral = await demoReferral(h, 'en', values);
    const coordinatorMail = mailsTo(DEMO_COORDINATOR_EMAIL);
    expect(coordinatorMail).toHaveLength(1);
    expect(mailsTo(RECRUITER_EMAIL)).toHaveLength(1);
    const mail = coordinatorMail[0]!;
    expect(mail.parsed.subject).toBe('New referral for Midtown Heart Center (Healthy Heart Study)');
    expect(mail.parsed.from?.text).toContain('studies@recruit.example');
    expect(mail.parsed.messageId).toMatch(/^<[0-9a-f-]{36}@recruit\.example>$/);
    expect(mail.parsed.text).toContain('2031-05-08 09:00 UTC');
    // No participant data anywhere in the raw message (headers, text, HTML, any encoding of them).
    const raw = mail.raw;
    const decoded = `${raw}\n${mail.parsed.text}\n${mail.parsed.html}`;
    for (const value of [...Object.values(values).filter((v) => v !== '10001'), 'zelda1', '5550111', 'Pills', 'Diet', '18-64', '18 to 64', 'diagnosed']) {
      expect(decoded.toLowerCase()).not.toContain(value.toLowerCase());
    }
    expect(raw).not.toMatch(/List-Unsubscribe/i);

    // The link opens the referral's view in the admin, which the coordinator may read.
    const link = /https:\/\/recruit\.example(\/referrals\/view\/(\d+))/.exec(mail.parsed.text ?? '')!;
    expect(Number(link[2])).toBe(referral.id);
    const [coordinator] = await h.db.select().from(users).where(eq(users.username, DEMO_COORDINATOR));
    await h.db
      .update(users)
      .set({ passwordHash: await hashPassword('a-good-password') })
      .where(eq(users.id, coordinator!.id));
    const token = await h.token(DEMO_COORDINATOR, 'a-good-password');
    const read = await h.request('GET', `/api/referrals/${referral.id}`, { token });
    expect(read.status).toBe(200);
    const listed = await json(await h.request('GET', `/api/referrals?id=${referral.id}`, { token }));
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([String(referral.id)]);
    const page = await h.app.request(link[1]!);
    expect(page.status).not.toBe(404);

    // The participant's confirmation: English, the site and its town, one-click unsubscribe.
    const confirmation = mailsTo(values.email);
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]!.parsed.subject).toBe('Thank you for your interest in Healthy Heart Study');
    expect(confirmation[0]!.parsed.text).toContain('Midtown Heart Center (New York)');
    expect(confirmation[0]!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(confirmation[0]!.raw).toMatch(/^List-Unsubscribe:\s+<https:\/\/recruit\.example\/api\/message-unsubscribe\/[\w-]+>\r?$/m);
  });

  it('confirms to a Spanish run in Spanish', async () => {
    const values = demoPerson(2);
    await demoReferral(h, 'es', values);
    const [mail] = mailsTo(values.email);
    expect(mail!.parsed.subject).toBe('Gracias por su interés en Healthy Heart Study');
    expect(mail!.parsed.text).toContain('el equipo del estudio en Midtown Heart Center (New York)');
    // Staff read theirs in their own language.
    expect(mailsTo(DEMO_COORDINATOR_EMAIL)[0]!.parsed.subject).toMatch(/^New referral/);
  });

  it('stops all participant mail to an address once its one-click unsubscribe is posted', async () => {
    const values = demoPerson(3);
    await demoReferral(h, 'en', values);
    const url = new URL(/^List-Unsubscribe:\s+<([^>]+)>/m.exec(mailsTo(values.email)[0]!.raw)![1]!);
    expect(url.origin).toBe('https://recruit.example');
    // A GET (a mail scanner following the link) changes nothing.
    const shown = await h.app.request(url.pathname);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('<form method="post">');
    const posted = await h.app.request(url.pathname, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    expect((await h.app.request('/api/message-unsubscribe/not-a-real-token-at-all', { method: 'POST' })).status).toBe(404);

    smtp.received.splice(0);
    // The same person again (no duplicate window, so a referral of its own): no mail for them.
    await h.db.update(engagements).set({ duplicateWindowDays: 0 }).where(eq(engagements.id, engagementId));
    await demoReferral(h, 'en', { ...values, email: values.email.toUpperCase(), phone: '212-555-0199' });
    await h.db.update(engagements).set({ duplicateWindowDays: 90 }).where(eq(engagements.id, engagementId));
    expect(mailsTo(values.email)).toHaveLength(0);
    expect(smtp.received.filter((m) => m.to.some((t) => t.toLowerCase() === values.email))).toHaveLength(0);
    // Staff still hear of the referral.
    expect(mailsTo(DEMO_COORDINATOR_EMAIL)).toHaveLength(1);
  });

  it('retries a refused message on MESSAGE_RETRY_SCHEDULE under the same Message-ID, and reminds of an overdue first contact', async () => {
    smtp.reply = 'temporary';
    const referral = await demoReferral(h, 'en', demoPerson(4));
    const rows = await h.db.select().from(messages).where(eq(messages.referralId, referral.id));
    const first = rows.filter((r) => !atDueTime(r.kind));
    expect(first.every((r) => r.status === 'retrying' && r.attempts === 1 && r.lastError === 'The mail server answered 451.')).toBe(true);
    expect(first[0]!.nextAttemptAt!.getTime()).toBe(T0.getTime() + 60_000);
    smtp.reply = 'accept';
    const options = messageOptionsOf({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock });
    h.clock.set(new Date(T0.getTime() + 59_000));
    expect(await sendDue(options)).toBe(0);
    h.clock.set(new Date(T0.getTime() + 60_000));
    expect(await sendDue(options)).toBe(first.length);
    expect(new Set(smtp.received.map((m) => m.parsed.messageId))).toEqual(new Set(first.map((r) => r.messageId)));

    // 48 hours on, no first contact: the reminder goes to the same staff.
    smtp.received.splice(0);
    h.clock.set(new Date(T0.getTime() + 48 * HOUR));
    await sendDue(options);
    const reminderIds = new Set(rows.filter((r) => r.kind === 'firstContactOverdue').map((r) => r.messageId));
    const reminders = smtp.received.filter((m) => reminderIds.has(m.parsed.messageId!));
    expect(reminders.map((m) => m.to[0]).sort()).toEqual([DEMO_COORDINATOR_EMAIL, RECRUITER_EMAIL].sort());
    expect(reminders[0]!.parsed.subject).toBe('First contact overdue: Midtown Heart Center (Healthy Heart Study)');
    // And the participant, whom nobody tried to reach, hears that the team will.
    const [participantReminder] = rows.filter((r) => r.kind === 'participantReminder');
    const reminded = smtp.received.filter((m) => m.parsed.messageId === participantReminder!.messageId);
    expect(reminded).toHaveLength(1);
    expect(reminded[0]!.parsed.subject).toBe('About your interest in Healthy Heart Study');
    expect(reminded[0]!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  });

  it('sends no reminder, to staff or participant, once the first contact was made', async () => {
    const referral = await demoReferral(h, 'en', demoPerson(5));
    await h.db.update(referrals).set({ firstContactAt: T0, status: 'contacted' }).where(eq(referrals.id, referral.id));
    const options = messageOptionsOf({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock });
    smtp.received.splice(0);
    h.clock.set(new Date(T0.getTime() + 49 * HOUR));
    await sendDue(options);
    expect(smtp.received).toHaveLength(0);
    const reminders = await h.db.select().from(messages).where(eq(messages.referralId, referral.id));
    expect(reminders.filter((r) => atDueTime(r.kind)).map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });
});

describe("the engagement's owner", () => {
  it('hears of an overdue first contact, besides the coordinator and the recruiter, but not of each new referral', async () => {
    const OWNER_EMAIL = 'owner@northwind.example';
    // The demo engagement's owner is the installation's first user (its Admin).
    const [owner] = await h.db.select({ id: users.id, username: users.username, email: users.email }).from(users).orderBy(asc(users.id)).limit(1);
    await h.db.update(users).set({ email: OWNER_EMAIL }).where(eq(users.id, owner!.id));
    try {
      const referral = await demoReferral(h, 'en', demoPerson(30));
      expect(mailsTo(OWNER_EMAIL)).toHaveLength(0);
      const options = messageOptionsOf({ db: h.db, config: h.config, jwtSecret: h.jwtSecret, log: silentLog, phi: h.phi, clock: h.clock });
      smtp.received.splice(0);
      h.clock.set(new Date(T0.getTime() + 48 * HOUR));
      await sendDue(options);
      const overdue = (await h.db.select().from(messages).where(eq(messages.referralId, referral.id))).filter((r) => r.kind === 'firstContactOverdue');
      expect(overdue.map((r) => r.recipientLabel).sort()).toEqual([DEMO_COORDINATOR, 'recruiter', owner!.username].sort());
      const [mail] = mailsTo(OWNER_EMAIL);
      expect(mail!.parsed.subject).toBe('First contact overdue: Midtown Heart Center (Healthy Heart Study)');
      expect(mail!.parsed.text).toContain(`/referrals/view/${referral.id}`);
    } finally {
      // An owner without an address hears nothing: the tests after this one see the demo as seeded.
      await h.db.update(users).set({ email: owner!.email }).where(eq(users.id, owner!.id));
    }
  });
});

describe('without SMTP_URL', () => {
  it('keeps messages waiting, visible in the admin, and sends them once a mail server is configured', async () => {
    const quiet = await createHarness({ PUBLIC_URL: 'https://recruit.example' });
    try {
      quiet.clock.set(T0);
      const demo = await seedDemoRun(quiet.db);
      const before = channel;
      channel = demo;
      const referral = await demoReferral(quiet, 'en', demoPerson(6)).finally(() => (channel = before));
      const rows = await quiet.db.select().from(messages).where(eq(messages.referralId, referral.id));
      const due = rows.filter((r) => !atDueTime(r.kind));
      expect(due.map((r) => [r.status, r.lastError, r.attempts])).toEqual(due.map(() => ['waiting', NO_MAIL_SERVER, 0]));
      const listed = await json(await quiet.request('GET', '/api/messages?status=waiting', { token: await quiet.token() }));
      expect(listed.meta.total).toBe(due.length);
      expect(listed.data[0].attributes.lastError).toBe(NO_MAIL_SERVER);
      expect(smtp.received).toHaveLength(0);

      // A start with SMTP_URL set finds them.
      const options = messageOptionsOf({
        db: quiet.db,
        config: { ...quiet.config, smtpUrl: smtp.url },
        jwtSecret: quiet.jwtSecret,
        log: silentLog,
        phi: quiet.phi,
        clock: quiet.clock,
      });
      expect(await sendDue(options)).toBe(due.length);
      expect(smtp.received).toHaveLength(due.length);
      const after = await quiet.db.select().from(messages).where(eq(messages.referralId, referral.id));
      expect(after.filter((r) => !atDueTime(r.kind)).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      await settleMessages();
      await quiet.close();
    }
  });
});

describe('the staff side', () => {
  it('lists messages without addresses, reveals one on an audited request, and refuses a resend of a sent one', async () => {
    const values = demoPerson(7);
    await demoReferral(h, 'en', values);
    const res = await h.request('GET', '/api/messages?kind=participantConfirmation&sort=-created&limit=10', { token: admin });
    expect(res.status).toBe(200);
    const text = await res.clone().text();
    expect(text).not.toContain(values.email);
    const listed = await json(res);
    const mine = listed.data[0];
    expect(mine.attributes).toMatchObject({ recipient: 'participant', status: 'sent', attempts: 1 });
    const revealed = await json(await h.request('POST', `/api/messages/${mine.id}/reveal`, { token: admin }));
    expect(revealed.meta.to).toBe(values.email);
    const events = await h.db.select().from(auditEvents).where(eq(auditEvents.entity, 'messages'));
    expect(events.some((e) => e.action === 'reveal' && JSON.stringify(e).includes(values.email) === false)).toBe(true);
    expect((await h.request('POST', `/api/messages/${mine.id}/resend`, { token: admin })).status).toBe(409);
    expect((await h.request('GET', '/api/messages?status=bogus', { token: admin })).status).toBe(400);
    expect((await h.request('GET', '/api/messages?sort=to', { token: admin })).status).toBe(400);
  });

  it('resends a failed message now', async () => {
    smtp.reply = 'final';
    const referral = await demoReferral(h, 'en', demoPerson(8));
    const [failed] = (await h.db.select().from(messages).where(eq(messages.referralId, referral.id))).filter((r) => r.kind === 'newReferral');
    expect(failed).toMatchObject({ status: 'failed', lastError: 'The mail server answered 550.' });
    smtp.reply = 'accept';
    const res = await h.request('POST', `/api/messages/${failed!.id}/resend`, { token: admin });
    expect(res.status).toBe(200);
    expect((await json(res)).data.attributes).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('edits a template (HTML sanitized), previews it, refuses bad input writing nothing, and puts the default back', async () => {
    const bad = await h.request('PATCH', '/api/message-templates/newReferral.en', {
      token: admin,
      body: doc('message-templates', { subject: 'Two\nlines', html: '', text: 'x' }),
    });
    expect(bad.status).toBe(422);
    const pointers = (await json(bad)).errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/data/attributes/subject', '/data/attributes/html']));
    expect(
      (await h.request('PATCH', '/api/message-templates/nothing.en', { token: admin, body: doc('message-templates', { subject: 's', html: 'h', text: 't' }) }))
        .status,
    ).toBe(404);
    const templates = await json(await h.request('GET', '/api/message-templates', { token: admin }));
    expect(templates.data.every((t: { attributes: { isDefault: boolean } }) => t.attributes.isDefault)).toBe(true);

    const saved = await h.request('PATCH', '/api/message-templates/newReferral.en', {
      token: admin,
      body: doc('message-templates', {
        subject: 'Referral at {{site}}',
        html: '<p onclick="x()">New at {{site}}<script>alert(1)</script> <a href="{{link}}">open</a></p>',
        text: 'New at {{site}}: {{link}} {{answers}}',
      }),
    });
    expect(saved.status).toBe(200);
    const attrs = (await json(saved)).data.attributes;
    expect(attrs.html).not.toMatch(/script|onclick/);
    const preview = (await json(await h.request('GET', '/api/message-templates/newReferral.en/preview', { token: admin }))).meta;
    expect(preview.subject).toBe('Referral at Midtown Heart Center');
    expect(preview.text).toBe('New at Midtown Heart Center: https://recruitment.example/referrals/view/1 ');

    const referral = await demoReferral(h, 'en', demoPerson(9));
    expect(mailsTo(DEMO_COORDINATOR_EMAIL)[0]!.parsed.subject).toBe('Referral at Midtown Heart Center');
    expect(referral.id).toBeGreaterThan(0);
    expect((await h.request('DELETE', '/api/message-templates/newReferral.en', { token: admin })).status).toBe(204);
  });

  it("turns an engagement's messages off and on with a delay, refusing bad input", async () => {
    const bad = await h.request('PATCH', `/api/message-settings/${engagementId}.newReferral`, {
      token: admin,
      body: doc('message-settings', { isEnabled: 'yes', delayMinutes: -1 }),
    });
    expect(bad.status).toBe(422);
    const listed = await json(await h.request('GET', `/api/message-settings?engagementId=${engagementId}`, { token: admin }));
    expect(listed.data.map((s: { attributes: { isEnabled: boolean } }) => s.attributes.isEnabled)).toEqual(MESSAGE_KINDS.map(() => true));
    const off = await h.request('PATCH', `/api/message-settings/${engagementId}.participantConfirmation`, {
      token: admin,
      body: doc('message-settings', { isEnabled: false, delayMinutes: 0 }),
    });
    expect(off.status).toBe(200);
    const delayed = await h.request('PATCH', `/api/message-settings/${engagementId}.newReferral`, {
      token: admin,
      body: doc('message-settings', { isEnabled: true, delayMinutes: 30 }),
    });
    expect((await json(delayed)).data.attributes).toMatchObject({ isEnabled: true, delayMinutes: 30 });
    const values = demoPerson(10);
    const referral = await demoReferral(h, 'en', values);
    expect(smtp.received).toHaveLength(0);
    const rows = await h.db.select().from(messages).where(eq(messages.referralId, referral.id));
    expect(rows.some((r) => r.kind === 'participantConfirmation')).toBe(false);
    expect(rows.filter((r) => r.kind === 'newReferral').every((r) => r.nextAttemptAt!.getTime() === T0.getTime() + 30 * 60_000)).toBe(true);
    await h.request('PATCH', `/api/message-settings/${engagementId}.participantConfirmation`, {
      token: admin,
      body: doc('message-settings', { isEnabled: true, delayMinutes: 0 }),
    });
    await h.request('PATCH', `/api/message-settings/${engagementId}.newReferral`, {
      token: admin,
      body: doc('message-settings', { isEnabled: true, delayMinutes: 0 }),
    });
  });

  it('purges the bodies of messages sent longer ago than MESSAGE_RETENTION_DAYS', async () => {
    const purged = await purgeBodies(h.db, new Date(T0.getTime() + 40 * 24 * HOUR), 30);
    expect(purged).toBeGreaterThan(0);
    const left = await h.db.select().from(messages).where(eq(messages.status, 'sent'));
    expect(left.every((r) => r.bodyCiphertext === null && r.purgedAt !== null)).toBe(true);
  });
});
